import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { RoleflowError } from '../core/errors.js';
import { makeRedactor } from '../core/flows/index.js';
import { renderConsole, renderSummary, type Style } from '../report/console.js';
import { renderAnnotations, renderStepSummary } from '../report/github.js';
import { renderJson } from '../report/json.js';
import { renderJunit } from '../report/junit.js';
import type { RunReport } from '../report/model.js';
import { DEFAULT_REPORT_FILES, type ReporterSpec } from '../report/reporters.js';
import { redactUrl } from './redact.js';
import { displayUrl } from './url-safety.js';

export interface ReportSinks {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Writes to stdout (the command's, which redacts again). */
  stdout(text: string): void;
  /** Colours for what goes to stdout. */
  style: Style;
  /** The per-test lines were already printed while the run went: the console adds the summary. */
  consoleWasLive: boolean;
  secrets: readonly string[];
}

/**
 * Render `report` with every reporter and write it where it goes: stdout, a file (folders
 * created), or — for github's markdown — appended to `$GITHUB_STEP_SUMMARY` unless a file is
 * named. Every text is redacted once more on its way out. Returns the files written.
 */
export async function writeReports(report: RunReport, specs: readonly ReporterSpec[], sinks: ReportSinks): Promise<string[]> {
  const written: string[] = [];
  const redact = makeRedactor(sinks.secrets);
  const toFile = async (file: string, text: string, append = false) => {
    const path = resolve(sinks.cwd, file);
    try {
      await mkdir(dirname(path), { recursive: true });
      await (append ? appendFile : writeFile)(path, redact(text), 'utf8');
    } catch (error) {
      throw new RoleflowError(`cannot write report ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    written.push(file);
  };
  for (const spec of specs) {
    switch (spec.name) {
      case 'console':
        if (spec.file !== undefined && spec.file !== '-') await toFile(spec.file, renderConsole(report, { color: false }));
        else sinks.stdout(sinks.consoleWasLive ? `\n${renderSummary(report, sinks.style)}` : renderConsole(report, sinks.style));
        break;
      case 'json':
      case 'junit': {
        const text = spec.name === 'json' ? renderJson(report) : renderJunit(report);
        const file = spec.file ?? DEFAULT_REPORT_FILES[spec.name]!;
        if (file === '-') sinks.stdout(text);
        else await toFile(file, text);
        break;
      }
      case 'github': {
        const annotations = renderAnnotations(fromWorkspace(report, sinks));
        if (annotations) sinks.stdout(annotations);
        const summaryFile = spec.file ?? sinks.env['GITHUB_STEP_SUMMARY'];
        if (summaryFile) await toFile(summaryFile, renderStepSummary(report), true);
        break;
      }
    }
  }
  return written;
}

/**
 * GitHub places annotations by paths from the repository root (`$GITHUB_WORKSPACE`); reports name
 * files from the working folder, which a workflow may have changed.
 */
function fromWorkspace(report: RunReport, sinks: ReportSinks): RunReport {
  const workspace = sinks.env['GITHUB_WORKSPACE'];
  if (!workspace) return report;
  const rebase = (file: string) => relative(workspace, resolve(sinks.cwd, file)).split(sep).join('/');
  return { ...report, results: report.results.map((r) => ({ ...r, file: rebase(r.file) })) };
}

/** A tenant URL as a report may hold it: no credentials, no credential-like query values. */
export function shownUrl(raw: string): string {
  if (raw.startsWith('embedded:')) return raw;
  try {
    return displayUrl(new URL(raw));
  } catch {
    return redactUrl(raw);
  }
}
