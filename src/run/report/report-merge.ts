import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { TextStreamDecoder } from '../../core/text/text-file.js';
import { JSON_REPORT } from '../read-reports.js';
import type { Redactor } from '../../core/text/redact.js';
import { jsonText } from '../../core/text/safe-text.js';
import { checkReadableFile } from '../../files/bounded-read.js';
import { loadSchema } from '../../files/package-root.js';
import { writeFileAtomic } from '../../files/role-files.js';
import { TextSpool } from '../../files/runs/spool.js';
import { parseReport, parseReportResult } from '../../report/json.js';
import { ReportMerge, mergedReport, type MergeTotals } from '../../report/combine/merge.js';
import { ReportScanner } from '../../report/combine/scan.js';
import type { RunReport, TestResult } from '../../report/model.js';
import { redactResult } from '../../report/run-report.js';

export interface MergeFilesOptions {
  cwd: string;
  /** The reports, named from `cwd`, in the order given (with --prefer-last: the run, then its reruns). */
  files: readonly string[];
  allowPartial: boolean;
  preferLast: boolean;
  /** `--min-pass-rate`; else the reports' own when they agree. */
  minPassRate?: number | undefined;
  /** The merged JSON report: a file (replaced whole once it is complete), or `-` for stdout. */
  out: string;
  redactor: Redactor;
}

export interface MergeFilesPorts {
  /** After each report is read: how many results it held. */
  read?(file: string, results: number): void;
  /** Each result of the merged report, in its order, as it is written (the console prints it). */
  result?(result: TestResult): void;
  /** The merged JSON report's text, piece by piece, when `out` is `-`. */
  stdout?(piece: string): void;
}

export interface MergedFiles {
  /** The merged report without its results (they are in `out`). */
  report: RunReport;
  totals: MergeTotals;
  warnings: string[];
}

/**
 * `report merge`, streamed: each report is read piece by piece (`ReportScanner`), its results one at
 * a time into a spool on disk (`TextSpool`) and a small index (`ReportMerge`); then the merged
 * results go, in order, to the JSON report and to `ports.result`, their counts, latency samples and
 * pass rate folded on the way. No report, and never all results, is in memory at once.
 */
export async function mergeReportFiles(opts: MergeFilesOptions, ports: MergeFilesPorts = {}): Promise<MergedFiles> {
  const spool = new TextSpool();
  const store = { put: (n: number, r: TestResult) => spool.put(n, JSON.stringify(r)), get: (n: number) => JSON.parse(spool.get(n)) as TestResult };
  try {
    const merge = new ReportMerge(store, { allowPartial: opts.allowPartial, preferLast: opts.preferLast, minPassRate: opts.minPassRate });
    const schema = loadSchema('report');
    for (const file of opts.files) {
      const head = await readReport(resolve(opts.cwd, file), file, schema, (result) => merge.addResult(redactResult(result, opts.redactor)));
      const ended = merge.endReport(file, opts.redactor.values(head.report));
      if (!ended.ok) throw new RoleflowError(ended.error);
      ports.read?.(file, head.results);
    }
    const merged = merge.finish();
    if (!merged.ok) throw new RoleflowError(merged.error);
    const body = join(spool.dir, 'results');
    await writeResults(body, merged.value.results(), ports);
    const totals = merged.value.totals();
    const report = mergedReport(merged.value.head, totals, []);
    await writeMerged(opts, report, body, ports);
    return { report, totals, warnings: merge.warnings() };
  } finally {
    spool.close();
  }
}

/** A report read piece by piece: each result to `onResult` as it is complete; its head checked. */
async function readReport(abs: string, file: string, schema: object, onResult: (r: TestResult) => void): Promise<{ report: Omit<RunReport, 'results'>; results: number }> {
  const scanner = new ReportScanner((text, index) => {
    const result = parseReportResult(text, file, index, schema);
    if (!result.ok) throw new RoleflowError(result.error);
    onResult(result.value);
  });
  const readable = checkReadableFile(abs, file, JSON_REPORT);
  if (!readable.ok) throw new InvalidFilesError(readable.issues);
  const decoder = new TextStreamDecoder(file, JSON_REPORT);
  const feed = (piece: Uint8Array, last = false) => {
    const text = decoder.decode(piece, last);
    if (!text.ok) throw new InvalidFilesError(text.issues);
    scanner.feed(text.value);
  };
  try {
    for await (const chunk of createReadStream(abs, { highWaterMark: 64 * 1024 })) feed(chunk as Buffer);
    feed(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof RoleflowError) throw error;
    throw new InvalidFilesError([{ file, line: 1, col: 1, message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})` }]);
  }
  const { head, results } = scanner.end();
  const parsed = parseReport(head, file, schema);
  if (!parsed.ok) throw new RoleflowError(parsed.error);
  const { results: _none, ...report } = parsed.value;
  return { report, results };
}

/** The merged results as the JSON report holds them (indented as `renderJson` does), into `path`. */
async function writeResults(path: string, results: Iterable<TestResult>, ports: MergeFilesPorts): Promise<void> {
  const handle = await open(path, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    let first = true;
    for (const result of results) {
      ports.result?.(result);
      const text = `${first ? '' : ',\n'}    ${jsonText(result, 2).replace(/\n/g, '\n    ')}`;
      first = false;
      pending.push(text);
      size += text.length;
      if (size >= FLUSH_CHARS) {
        await handle.write(pending.join(''));
        pending = [];
        size = 0;
      }
    }
    await handle.write(pending.join(''));
  } finally {
    await handle.close();
  }
}

/**
 * The merged report: `report` (its results empty) rendered as the JSON reporter renders a report,
 * with the results written in `body` where its empty array is. A file is written beside its place
 * and renamed there once complete.
 */
async function writeMerged(opts: MergeFilesOptions, report: RunReport, body: string, ports: MergeFilesPorts): Promise<void> {
  const text = `${jsonText(report, 2)}\n`;
  const empty = text.lastIndexOf('"results": []');
  if (empty === -1) throw new Error('report merge: the results are not where the report ends');
  const hasResults = report.summary.tests > 0;
  const before = `${text.slice(0, empty)}"results": [${hasResults ? '\n' : ''}`;
  const after = `${hasResults ? '\n  ' : ''}]${text.slice(empty + '"results": []'.length)}`;
  if (opts.out === '-') {
    ports.stdout?.(before);
    for await (const piece of createReadStream(body, { encoding: 'utf8' })) ports.stdout?.(piece as string);
    ports.stdout?.(after);
    return;
  }
  const target = resolve(opts.cwd, opts.out);
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, piecesOf(before, body, after));
  } catch (error) {
    throw new RoleflowError(`cannot write report ${opts.out}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** `before`, the file `body` 64 KB at a time, `after`: as UTF-8. */
function* piecesOf(before: string, body: string, after: string): Generator<Uint8Array> {
  yield Buffer.from(before, 'utf8');
  const fd = openSync(body, 'r');
  try {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (let read: number; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) yield Buffer.from(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  yield Buffer.from(after, 'utf8');
}

const FLUSH_CHARS = 64 * 1024;
