import { formatMs } from '../../src/core/flows/index.js';
import { mdCode, mdText, thousands } from '../../src/core/plan/render/markdown-parts.js';
import { escapeControls } from '../../src/core/text/safe-text.js';
import { groupAssertions, quietEndText, repeatsText, snapshotDiffs } from '../../src/report/digest.js';
import { noTestRanReason } from '../../src/report/no-tests.js';
import { passRateText } from '../../src/core/runs/loop/index.js';
import type { RunReport, TestResult } from '../../src/report/model.js';
import { fenced, fitTable } from './markdown.js';
import { markerLine } from './sticky-comment.js';

const STATUS: Record<TestResult['status'], string> = { pass: '✅ pass', fail: '❌ fail', error: '💥 error', skip: '⏭️ skip', not_run: '⏹️ not run' };
const TRANSPORT: Record<TestResult['transport'], string> = { https: 'HTTPS', ws: 'WebSocket' };
// What failed and why come first: a reader scans the first columns; the timings follow.
const TABLE_HEAD = '| | Test | Why | Transport | Repeats | p50 | p95 |\n|---|---|---|---|---|---|---|\n';
/** A failure's message is the reason to read the table; it is kept this long. */
const MAX_MESSAGE = 300;

/**
 * A flow-test run as a pull-request comment (or a summary section), never longer than
 * `maxChars`: a line of totals, then one row per test × transport — failures first, so a cut
 * table still shows them — with client wall-clock p50/p95. Whatever is cut is said.
 */
export function renderReportMarkdown(report: RunReport, opts: { maxChars: number; marker?: string }): string {
  const head = headOf(report, opts.marker);
  // Failures first, then what a glance should not take for a plain pass: skips, quiet ends.
  const rank = (r: TestResult): number => (r.status === 'fail' || r.status === 'error' ? 0 : r.status === 'skip' ? 1 : quietEndText(r) !== undefined ? 2 : 3);
  const ordered = report.results.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i);
  const rows = ordered.map(({ r }) => rowOf(r));
  const omission = (hidden: number): string => `\n… ${thousands(hidden)} more results not shown (passing ones last); the full report is in the job summary and the JSON report.\n`;
  if (rows.length === 0) return cut(`${head}\nNo tests ran.\n`, opts.maxChars);
  // The snapshot diffs may take half the comment; the table has the rest.
  const diffs = diffsMarkdown(ordered.map(({ r }) => r), Math.floor(opts.maxChars / 2));
  const table = fitTable(head, TABLE_HEAD, rows, opts.maxChars - (diffs === '' ? 0 : diffs.length + 1), omission);
  return cut(diffs === '' ? table : `${table}\n${diffs}`, opts.maxChars);
}

/** Lines of a snapshot diff in a comment, and characters per line. */
const DIFF_LINES = 40;
const DIFF_LINE_CHARS = 200;

/**
 * Each failed snapshot's diff, snapshot (`-`) to received (`+`), folded under its test, as many
 * as fit in `maxChars` (in the order given); those left out are counted.
 */
function diffsMarkdown(results: readonly TestResult[], maxChars: number): string {
  const blocks = results.flatMap((r) =>
    snapshotDiffs(r).map(({ assertion, diff }) => {
      const lines = diff.replace(/\n$/, '').split('\n').map((l) => escapeControls(l.length > DIFF_LINE_CHARS ? `${l.slice(0, DIFF_LINE_CHARS)}…` : l));
      const shown = lines.length > DIFF_LINES ? [...lines.slice(0, DIFF_LINES), `… ${thousands(lines.length - DIFF_LINES)} more lines`] : lines;
      const summary = `${mdCode(r.file)}:${assertion.line} › ${mdText(r.name)} [${TRANSPORT[r.transport]}]: snapshot diff`;
      return `<details><summary>${summary}</summary>\n\n${fenced(shown.join('\n'), 'diff')}\n</details>\n`;
    }),
  );
  if (blocks.length === 0) return '';
  const title = '**Snapshot diffs** (snapshot `-`, received `+`)\n\n';
  const left = (n: number) => `\n… ${thousands(n)} more snapshot diffs in the job summary and the JSON report.\n`;
  let text = title;
  let shown = 0;
  while (shown < blocks.length && text.length + blocks[shown]!.length + left(blocks.length).length <= maxChars) text += blocks[shown++]!;
  if (shown === 0) return '';
  return shown < blocks.length ? `${text}${left(blocks.length - shown)}` : text;
}

function headOf(report: RunReport, marker: string | undefined): string {
  const s = report.summary;
  const lines: string[] = [];
  if (marker !== undefined) lines.push(markerLine(marker));
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.total})` : '';
  const merged = report.merged_shards?.length ? ` (${report.merged_shards.length} shards merged)` : '';
  lines.push(`### roleflow test on ${mdCode(report.tenant.name)}${shard}${merged}`, '');
  const none = noTestRanReason(report);
  // --min-pass-rate: the suite is judged as a whole; its failures are listed below either way.
  const verdict = (report.gate ? !report.gate.passed : s.failed > 0) ? '❌' : none !== undefined ? '⚠️' : '✅';
  const errored = s.errored > 0 ? ` (${thousands(s.errored)} errors)` : '';
  lines.push(
    `${verdict} **${thousands(s.passed)} passed, ${thousands(s.failed)} failed${errored}, ${thousands(s.skipped)} skipped** of ${thousands(s.tests)} (tests × transports), ${thousands(s.executions)} executions in ${formatMs(report.duration_ms)}${report.bailed ? '; stopped early by --bail' : ''}`,
    '',
  );
  if (report.gate) lines.push(`Pass rate: ${mdText(passRateText(report.gate))}.`, '');
  // Said whether or not --pass-with-no-tests let the step pass: a green run that tested nothing is news.
  if (none !== undefined) lines.push(`**Nothing was tested**: ${mdText(none)}.`, '');
  return lines.join('\n');
}

function rowOf(r: TestResult): string {
  const quiet = quietEndText(r);
  const why = r.status === 'pass' ? '' : whyNot(r);
  const text = quiet === undefined ? why : why === '' ? quiet : `${why}; ${quiet}`;
  const message = text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
  const p = (key: 'p50' | 'p95'): string => (r.wall_ms === null ? '–' : formatMs(r.wall_ms[key]));
  const test = `${mdCode(r.file)} › ${mdText(r.name)} (flow ${mdCode(r.flow)})`;
  return `| ${STATUS[r.status]} | ${test} | ${mdText(message)} | ${TRANSPORT[r.transport]} | ${repeatsText(r)} | ${p('p50')} | ${p('p95')} |\n`;
}

/** A failure says which assertion failed, where, and how; a skip says why. */
function whyNot(r: TestResult): string {
  const first = r.status === 'skip' ? undefined : groupAssertions(r, 'fail')[0];
  if (first === undefined) return r.message;
  const more = r.repeat > 1 ? ` (${r.message})` : '';
  return `line ${first.assertion.line}: ${first.assertion.message}${more}`;
}

function cut(text: string, max: number): string {
  return cutToFit(text, max, '\n… cut to fit; the full report is in the job summary.\n');
}

/** `text` if it fits in `max` characters, else its whole lines that fit and then `notice`. */
export function cutToFit(text: string, max: number, notice: string): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf('\n', Math.max(0, max - notice.length));
  return `${text.slice(0, Math.max(0, at))}${notice}`.slice(0, max);
}
