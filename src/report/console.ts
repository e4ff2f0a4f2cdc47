import { formatMs, type AssertionResult } from '../core/flows/index.js';
import { maxOf, pushAll } from '../core/text/lists.js';
import { escapeControls, fitColumns, safeText } from '../core/text/safe-text.js';
import { passRateText } from '../core/runs/loop/index.js';
import { latencyRowsOf, groupAssertions, idsText, missingShardsText, quietEndText, repeatsText } from './digest.js';
import type { RunReport, TestResult, TestStatus } from './model.js';
import type { Reporter, ReportSinks, StatusLine } from './reporter.js';

/** ANSI colours, or plain text: the caller decides (colours only on a TTY, never with NO_COLOR). */
export interface Style {
  color: boolean;
  /** `test --quiet`: no line per skipped assertion (the totals still count them). */
  quiet?: boolean;
}

const MARK: Record<TestStatus, string> = { pass: '✓', fail: '✗', error: '✗', skip: '-', not_run: '·' };
const CODES = { green: 32, red: 31, yellow: 33, dim: 2, bold: 1 } as const;

function paint(style: Style, code: keyof typeof CODES, text: string): string {
  return style.color ? `\x1b[${CODES[code]}m${text}\x1b[0m` : text;
}

function statusColor(status: TestStatus | AssertionResult['status']): keyof typeof CODES {
  return status === 'pass' ? 'green' : status === 'skip' ? 'yellow' : status === 'not_run' ? 'dim' : 'red';
}

/**
 * Names and files are shown with `safeText`, messages with `escapeControls` (the report's
 * messages are escaped already; a report read back for `report merge` may not be).
 *
 * One test × transport: its line (mark, id, transport, repeats passed/total, wall-clock), then
 * each failed assertion (expected vs actual, at `file:line:col`) and each skipped one with its
 * reason; the same assertion failing in several repeats is one line with a count.
 */
export function renderTestResult(r: TestResult, style: Style): string {
  // Repeats judged: an interrupted execution started but is not one of them.
  const ran = r.repeats.filter((x) => x.status !== 'not_run').length;
  const wall = r.wall_ms ? ` ${r.repeat > 1 ? 'p50 ' : ''}${formatMs(r.wall_ms.p50)}` : '';
  const counts = (r.status === 'skip' || r.status === 'not_run') && ran === 0 ? '' : ` ${repeatsText(r)}`;
  const file = safeText(r.file);
  const message = escapeControls(r.message);
  const head = `${paint(style, statusColor(r.status), MARK[r.status])} ${safeText(r.id)} ${paint(style, 'dim', `[${r.transport}]`)}${counts}${wall}${quietNote(r, style)}`;
  const lines = [
    r.status === 'skip' && ran === 0
      ? `${head} ${paint(style, 'yellow', `skipped: ${message}`)}`
      : r.status === 'not_run'
        ? `${head} ${paint(style, 'dim', message)}`
        : head,
  ];
  if (r.status === 'fail' || r.status === 'error') {
    const failures = groupAssertions(r, 'fail');
    for (const g of failures) {
      const times = r.repeat > 1 && g.repeats > 0 ? ` (${g.repeats} of ${ran} repeats)` : '';
      lines.push(`    ${paint(style, 'red', '✗')} ${escapeControls(g.assertion.message)}${times} ${paint(style, 'dim', `(${file}:${g.assertion.line}:${g.assertion.col})`)}`);
      if (g.assertion.diff !== undefined) pushAll(lines, diffLines(g.assertion.diff, style));
    }
    for (const x of r.repeats.filter((x) => (x.status === 'fail' || x.status === 'error') && x.ids).slice(0, 3)) {
      lines.push(`    ${paint(style, 'dim', `on the tenant${r.repeat > 1 ? ` (repeat ${x.index})` : ''}: ${idsText(x.ids)}`)}`);
    }
    // With repeats, say why the failures add up to a failed test (min_pass), unless a budget across them did.
    if (r.repeat > 1 && !failures.some((g) => g.repeats === 0)) lines.push(`    ${paint(style, 'dim', message)}`);
  }
  for (const g of style.quiet ? [] : groupAssertions(r, 'skip')) {
    lines.push(`    ${paint(style, 'yellow', '-')} ${paint(style, 'dim', `${escapeControls(g.assertion.message)} (${file}:${g.assertion.line}:${g.assertion.col})`)}`);
  }
  return lines.join('\n');
}

/** A snapshot's diff under its failure: indented, `-` snapshot in red, `+` received in green. */
function diffLines(diff: string, style: Style): string[] {
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => escapeControls(l))
    .map((l) => `      ${/^-(?!--)/.test(l) ? paint(style, 'red', l) : /^\+(?!\+\+)/.test(l) ? paint(style, 'green', l) : paint(style, 'dim', l)}`);
}

/**
 * Executions that ended because nothing more came, not because their `until` was reached: the
 * flow may have been cut short, and the line says so.
 */
function quietNote(r: TestResult, style: Style): string {
  const quiet = quietEndText(r);
  return quiet === undefined ? '' : ` ${paint(style, 'yellow', `(${quiet})`)}`;
}

/**
 * The table per flow × transport (client wall-clock percentiles) and the totals line.
 * `skippedChecks`: the skipped assertions, for a report whose results went by one at a time
 * (`report merge`); else counted from its results.
 */
export function renderSummary(report: RunReport, style: Style, skippedChecks?: number): string {
  const rows = latencyRowsOf(report);
  // The "not run" column only after --bail stopped something: it is 0 in every other run.
  const notRun = report.summary.not_run > 0;
  const header = ['flow', 'transport', 'pass', 'fail', 'skip', ...(notRun ? ['not run'] : []), 'p50', 'p95'];
  const body = rows.map((row) => [
    safeText(row.flow),
    row.transport,
    String(row.pass),
    String(row.fail),
    String(row.skip),
    ...(notRun ? [String(row.notRun)] : []),
    row.wall ? formatMs(row.wall.p50) : '-',
    row.wall ? formatMs(row.wall.p95) : '-',
  ]);
  const table = rows.length > 0 ? `${alignColumns([header, ...body], header.map((_, i) => i).slice(2)).join('\n')}\n\n` : '';
  const s = report.summary;
  const failed = s.errored > 0 ? `${s.failed} failed (${s.errored} errored)` : `${s.failed} failed`;
  const parts = [
    paint(style, s.passed > 0 ? 'green' : 'dim', `${s.passed} passed`),
    paint(style, s.failed > 0 ? 'red' : 'dim', failed),
    paint(style, s.skipped > 0 ? 'yellow' : 'dim', `${s.skipped} skipped`),
    ...(s.not_run > 0 ? [paint(style, 'yellow', `${s.not_run} not run`)] : []),
  ];
  const bail = report.bailed ? `\n${paint(style, 'yellow', 'Stopped early: --bail started no new execution after the first failure')}` : '';
  const interrupted = report.interrupted
    ? `\n${paint(style, 'yellow', 'Interrupted: no new execution started, those in flight were ended; what did not finish is not run')}`
    : '';
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.total})` : '';
  const partial = report.missing_shards?.length ? `\n${paint(style, 'yellow', `Partial: ${missingShardsText(report.missing_shards)} (merged with --allow-partial)`)}` : '';
  // Assertions a transport could not check are listed under their test; the totals count them
  // too, so a run whose checks were mostly skipped never reads as fully green.
  const skipped = skippedChecks ?? report.results.reduce((n, r) => n + groupAssertions(r, 'skip').length, 0);
  const checks = skipped === 0 ? '' : `; ${paint(style, 'yellow', `${skipped} ${skipped === 1 ? 'assertion' : 'assertions'} skipped`)}`;
  const gate = report.gate ? `\n${paint(style, report.gate.passed ? 'green' : 'red', `Pass rate: ${passRateText(report.gate)}`)}` : '';
  return `${table}${paint(style, 'bold', 'Tests:')} ${parts.join(', ')} (${s.tests}) in ${formatMs(report.duration_ms)}${checks}${shard}${bail}${interrupted}${partial}${gate}`;
}

/** The whole console report, for a file or for `report merge`: every result, then the summary. */
export function renderConsole(report: RunReport, style: Style): string {
  const results = report.results.map((r) => renderTestResult(r, style));
  return `${[...results, '', renderSummary(report, style)].join('\n')}\n`;
}

/**
 * The console reporter, the one home of a test run's console output. On stdout: with `live` (a
 * run going on: `test`), a line per test × transport as each ends and the summary at the end,
 * while `status` (a terminal) shows what is running; without (`report merge`), the whole console
 * report at the end. To a file: the whole console report, without colours.
 */
export function consoleReporter(opts: { file?: string | undefined; style: Style; live: boolean; status?: StatusLine | undefined; sinks: ReportSinks }): Reporter {
  const { file, style, status, sinks } = opts;
  if (file !== undefined && file !== '-') return { onRunEnd: (report) => sinks.file(file, renderConsole(report, { color: false }), 'human') };
  const running: string[] = [];
  let done = 0;
  let total = 0;
  const draw = (): void => status?.show(sinks.redactor.text(progressLine(done, total, running.at(-1), status.columns)));
  const progress = (label: string, ended: number, of: number, start: boolean): void => {
    if (start) running.push(label);
    else if (running.includes(label)) running.splice(running.indexOf(label), 1);
    done = ended;
    total = of;
    draw();
  };
  return {
    onExecutionStart: (label, ended, of) => progress(label, ended, of, true),
    onExecutionEnd: (label, ended, of) => progress(label, ended, of, false),
    onTestResult(result) {
      if (!opts.live) return;
      status?.clear();
      sinks.out(renderTestResult(result, style));
      draw();
    },
    onRunEnd(report) {
      status?.clear();
      sinks.out(opts.live ? `\n${renderSummary(report, style)}` : renderConsole(report, style));
    },
  };
}

/**
 * The live line on a TTY: `running 12/40 · flows/a.yaml > name [ws]`, cut to fit in `width`
 * columns less one (a line that wraps could not be wiped).
 */
export function progressLine(done: number, total: number, current: string | undefined, width = 80): string {
  return fitColumns(`running ${done}/${total}${current ? ` · ${safeText(current)}` : ''}`, Math.max(10, width - 1));
}

function alignColumns(rows: string[][], rightAligned: number[]): string[] {
  const widths = rows[0]!.map((_, i) => maxOf(rows.map((r) => r[i]!.length), 0));
  return rows.map((r) =>
    r.map((cell, i) => (rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd(),
  );
}
