import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { RoleflowError } from '../core/errors.js';
import type { Redactor } from '../core/redact.js';
import { renderConsole, renderSummary, type Style } from '../report/console.js';
import { renderAnnotations, renderStepSummary } from '../report/github.js';
import { renderHtml } from '../report/html.js';
import { renderJson } from '../report/json.js';
import { renderJunit } from '../report/junit.js';
import type { RunReport } from '../report/model.js';
import { DEFAULT_REPORT_FILES, type ReporterSpec } from '../report/reporters.js';
export { shownUrl } from '../core/printed-url.js';

export interface ReportSinks {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Writes human text to stdout (the command's `out`, which masks secrets in it again). */
  stdout(text: string): void;
  /**
   * Writes machine-readable text rendered from `report` to stdout (the command's `outData`): its
   * values are redacted, the text is not masked again, so its syntax stands.
   */
  data(report: RunReport, render: (report: RunReport) => string): void;
  /** Colours for what goes to stdout. */
  style: Style;
  /** The per-test lines were already printed while the run went: the console adds the summary. */
  consoleWasLive: boolean;
  /** The run's secrets: masked in the human text written to files (the report's values are already). */
  redactor: Redactor;
}

/**
 * Render `report` (its values already redacted) with every reporter and write it where it goes:
 * stdout, a file (folders created), or — for github's markdown — appended to
 * `$GITHUB_STEP_SUMMARY` unless a file is named. Human text (console, markdown) is masked once more
 * on its way out; JSON, JUnit and workflow commands are not, so a secret that is a common word
 * cannot break their syntax. Returns the files written.
 */
export async function writeReports(report: RunReport, specs: readonly ReporterSpec[], sinks: ReportSinks): Promise<string[]> {
  const written: string[] = [];
  const toFile = async (file: string, text: string, kind: 'human' | 'data', append = false) => {
    const path = resolve(sinks.cwd, file);
    try {
      await mkdir(dirname(path), { recursive: true });
      await (append ? appendFile : writeFile)(path, kind === 'human' ? sinks.redactor.text(text) : text, 'utf8');
    } catch (error) {
      throw new RoleflowError(`cannot write report ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    written.push(file);
  };
  for (const spec of specs) {
    switch (spec.name) {
      case 'console':
        if (spec.file !== undefined && spec.file !== '-') await toFile(spec.file, renderConsole(report, { color: false }), 'human');
        else sinks.stdout(sinks.consoleWasLive ? `\n${renderSummary(report, sinks.style)}` : renderConsole(report, sinks.style));
        break;
      case 'json':
      case 'junit':
      case 'html': {
        const render = spec.name === 'json' ? renderJson : spec.name === 'junit' ? renderJunit : renderHtml;
        const file = spec.file ?? DEFAULT_REPORT_FILES[spec.name]!;
        if (file === '-') sinks.data(report, render);
        else await toFile(file, render(report), 'data');
        break;
      }
      case 'github': {
        const tenant = spec.tenant === undefined ? {} : { tenant: spec.tenant };
        sinks.data(fromWorkspace(report, sinks), (r) => renderAnnotations(r, tenant));
        const summaryFile = spec.file ?? sinks.env['GITHUB_STEP_SUMMARY'];
        if (summaryFile) await toFile(summaryFile, renderStepSummary(report, tenant), 'human', true);
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
