import type { Parsed } from '../core/flows/index.js';
import { consoleReporter, type Style } from './console.js';
import { githubReporter } from './github.js';
import { renderHtml } from './html/report.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { fileReporter, type Reporter, type ReportSinks, type StatusLine } from './reporter.js';

export const REPORTER_NAMES = ['console', 'json', 'junit', 'github', 'html'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** `--reporter NAME[=FILE]`. `file` `-` is stdout; github's file is the markdown summary. */
export interface ReporterSpec {
  name: ReporterName;
  file?: string;
  /** One tenant's run in a run over several: github names it in its annotations and summary. */
  tenant?: string;
}

export const DEFAULT_REPORT_FILES: Partial<Record<ReporterName, string>> = {
  json: 'roleflow-report.json',
  junit: 'roleflow-junit.xml',
  html: 'roleflow-report.html',
};

/**
 * The reporters a run writes: those named with `--reporter` (repeatable), `--json` as `json=-`,
 * and `console` when none is named. A machine-readable report on stdout must be alone there.
 */
export function parseReporters(values: readonly string[], json: boolean): Parsed<ReporterSpec[]> {
  const specs: ReporterSpec[] = [];
  for (const value of values) {
    const at = value.indexOf('=');
    const name = (at === -1 ? value : value.slice(0, at)).trim();
    const file = at === -1 ? undefined : value.slice(at + 1).trim();
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      return { ok: false, error: `unknown reporter "${name}" in --reporter ${value}: use ${REPORTER_NAMES.join(', ')} (NAME or NAME=FILE)` };
    }
    if (file === '') return { ok: false, error: `--reporter ${value}: the file name after "=" is empty` };
    specs.push({ name: name as ReporterName, ...(file !== undefined && { file }) });
  }
  if (json) specs.push({ name: 'json', file: '-' });
  if (specs.length === 0) specs.push({ name: 'console' });
  // github's annotations always go to stdout, where the runner reads workflow commands.
  const onStdout = specs.filter((s) => s.name === 'github' || s.file === '-' || (s.file === undefined && s.name === 'console'));
  const machine = onStdout.filter((s) => s.name === 'json' || s.name === 'junit' || s.name === 'html');
  if (machine.length > 0 && onStdout.length > 1) {
    return { ok: false, error: `${machine[0]!.name} on stdout cannot share it with ${onStdout.filter((s) => s !== machine[0]).map((s) => s.name).join(', ')}: give one of them a file (NAME=FILE)` };
  }
  return { ok: true, value: specs };
}

/**
 * The reporters of one tenant's run in a test run over several: each report file gets the tenant
 * in its name before the extension (`report.json` → `report.staging.json`; the default
 * `roleflow-report.json` → `roleflow-report.staging.json`), so every tenant's report is a report
 * `report merge`, `report compare` and `promote` read as they are. github's step summary without a
 * file is appended to, once per tenant; so is a file in `asItIs` (one that exists and is not a
 * regular file: `/dev/null`, a pipe). A machine-readable report on stdout cannot hold several
 * runs: an error, undefined for the reporters that go.
 */
export function reportersOfTenant(specs: readonly ReporterSpec[], tenant: string, asItIs: ReadonlySet<string> = new Set()): Parsed<ReporterSpec[]> {
  const onStdout = specs.find((s) => s.file === '-' && s.name !== 'console');
  if (onStdout) return { ok: false, error: `--reporter ${onStdout.name}=- (or --json) writes one run: with several tenants give it a file, which gets each tenant's name` };
  const safe = tenant.replace(/[^A-Za-z0-9_-]/g, '_');
  return {
    ok: true,
    value: specs.map((spec) => {
      const file = spec.file === undefined || spec.file === '-' ? (spec.name === 'github' || spec.name === 'console' ? spec.file : DEFAULT_REPORT_FILES[spec.name]) : spec.file;
      if (file === undefined || file === '-' || asItIs.has(file)) return { ...spec, tenant };
      const dot = file.lastIndexOf('.');
      const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
      const named = dot > slash + 1 ? `${file.slice(0, dot)}.${safe}${file.slice(dot)}` : `${file}.${safe}`;
      return { ...spec, file: named, tenant };
    }),
  };
}

/**
 * The reporters of `specs`, writing to `sinks`. `console`: its colours, whether results come one by
 * one (`live`: a test run, not `report merge`) and the terminal's status line, if one is drawn.
 */
export function createReporters(specs: readonly ReporterSpec[], sinks: ReportSinks, console: { style: Style; live: boolean; status?: StatusLine | undefined }): Reporter[] {
  return specs.map((spec) => {
    switch (spec.name) {
      case 'console':
        return consoleReporter({ ...console, file: spec.file, sinks });
      case 'github':
        return githubReporter({ file: spec.file, tenant: spec.tenant, sinks });
      default: {
        const render = spec.name === 'json' ? renderJson : spec.name === 'junit' ? renderJunit : renderHtml;
        return fileReporter(render, spec.file ?? DEFAULT_REPORT_FILES[spec.name]!, sinks);
      }
    }
  });
}
