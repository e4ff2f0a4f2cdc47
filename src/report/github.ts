import { formatMs } from '../core/flows/index.js';
import { escapeControls, safeText } from '../core/text/safe-text.js';
import { passRateText } from '../core/runs/loop/index.js';
import { codeBlock } from '../core/plan/render/markdown-parts.js';
import { latencyRowsOf, groupAssertions, missingShardsText, quietEndText, repeatsText, snapshotDiffs } from './digest.js';
import { relative, resolve, sep } from 'node:path';
import type { LatencyStats, RunReport, TestResult } from './model.js';
import type { Reporter, ReportSinks } from './reporter.js';

/**
 * The github reporter: the annotations on stdout, where the runner reads workflow commands, and
 * the markdown summary appended to `file`, else `$GITHUB_STEP_SUMMARY`. `tenant`: one tenant's
 * run in a run over several, named in both.
 */
export function githubReporter(opts: { file?: string | undefined; tenant?: string | undefined; sinks: ReportSinks }): Reporter {
  const { sinks } = opts;
  const tenant = opts.tenant === undefined ? {} : { tenant: opts.tenant };
  return {
    async onRunEnd(report) {
      sinks.data(fromWorkspace(report, sinks), (r) => renderAnnotations(r, tenant));
      const summaryFile = opts.file ?? sinks.env['GITHUB_STEP_SUMMARY'];
      if (summaryFile) await sinks.file(summaryFile, renderStepSummary(report, tenant), 'human', true);
    },
  };
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

/**
 * GitHub Actions workflow commands: one `::error` per failed assertion of a failed test, at the
 * line and column where the assertion is written (an execution error at the test's line). Names
 * and messages are escaped (`safe-text.ts`) before GitHub's own escaping, so no line break of
 * theirs can reach the log and start a workflow command there.
 */
export function renderAnnotations(report: RunReport, opts: { tenant?: string } = {}): string {
  // In a run over several tenants the same test fails once per tenant: the title says which.
  const where = opts.tenant === undefined ? 'roleflow' : `roleflow (tenant ${safeText(opts.tenant)})`;
  const out: string[] = [];
  for (const r of report.results) {
    if (r.status !== 'fail' && r.status !== 'error') continue;
    const ran = r.repeats.filter((x) => x.execution !== 'not_run').length;
    for (const g of groupAssertions(r, 'fail')) {
      const a = g.assertion;
      const times = r.repeat > 1 && g.repeats > 0 ? ` (${g.repeats} of ${ran} repeats)` : '';
      const props = [`file=${property(safeText(r.file))}`, `line=${a.line}`, `col=${a.col}`, `title=${property(`${where}: ${safeText(r.name)} [${r.transport}]`)}`];
      // A snapshot's diff follows on lines of its own: GitHub shows %0A as a line break.
      const diff = a.diff === undefined ? '' : `\n${a.diff.replace(/\n$/, '').split('\n').map(escapeControls).join('\n')}`;
      out.push(`::error ${props.join(',')}::${data(`${escapeControls(a.message)}${times}${diff}`)}`);
    }
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

const MAX_FAILURES_LISTED = 50;

/**
 * Markdown for `$GITHUB_STEP_SUMMARY`: totals, latency tables, failures, and every result folded.
 * `tenant`: one tenant's section of a run over several, headed by its name. It ends with a blank
 * line, so the next section appended (another tenant's) starts a heading of its own: CommonMark
 * would otherwise read it as part of the `</details>` HTML block.
 */
export function renderStepSummary(report: RunReport, opts: { tenant?: string } = {}): string {
  const s = report.summary;
  const icon = (report.gate ? !report.gate.passed : s.failed > 0) ? '❌' : '✅';
  const where = [
    `tenant \`${code(report.tenant.name)}\``,
    ...(report.shard ? [`shard ${report.shard.index}/${report.shard.total}`] : []),
    ...(report.missing_shards?.length ? [`⚠️ partial: ${missingShardsText(report.missing_shards)}`] : []),
  ];
  const parts = [
    `## ${icon} roleflow test${opts.tenant === undefined ? '' : ` on ${cell(opts.tenant)}`}: ${s.passed} passed, ${s.failed} failed${s.errored > 0 ? ` (${s.errored} errored)` : ''}, ${s.skipped} skipped${s.not_run > 0 ? `, ${s.not_run} not run` : ''} (${s.tests}) in ${formatMs(report.duration_ms)}`,
    '',
    `${where.join(' · ')}${report.bailed ? ' · stopped early by --bail' : ''}${report.interrupted ? ' · ⚠️ interrupted: what did not finish is not run' : ''}${report.gate ? ` · ${report.gate.passed ? '✅' : '❌'} pass rate ${passRateText(report.gate)}` : ''}`,
    '',
  ];
  const rows = latencyRowsOf(report);
  if (rows.length > 0) {
    // The "not run" column only after --bail stopped something: it is 0 in every other run.
    const notRun = s.not_run > 0;
    parts.push(
      '### Latency (client wall-clock)',
      '',
      `| flow | transport | pass | fail | skip |${notRun ? ' not run |' : ''} p50 | p95 | max |`,
      `|---|---|--:|--:|--:|${notRun ? '--:|' : ''}--:|--:|--:|`,
    );
    for (const row of rows) {
      const counts = [row.pass, row.fail, row.skip, ...(notRun ? [row.notRun] : [])].join(' | ');
      parts.push(`| ${cell(row.flow)} | ${row.transport} | ${counts} | ${ms(row.wall, 'p50')} | ${ms(row.wall, 'p95')} | ${ms(row.wall, 'max')} |`);
    }
    parts.push('');
  }
  const steps = rows.flatMap((row) => Object.entries(row.steps).map(([service, st]) => ({ flow: row.flow, service, st })));
  if (steps.length > 0) {
    parts.push('### Step latency (server-reported, HTTPS)', '', '| flow | step | samples | p50 | p95 | max |', '|---|---|--:|--:|--:|--:|');
    for (const { flow, service, st } of steps) {
      parts.push(`| ${cell(flow)} | ${cell(service)} | ${st.count} | ${ms(st, 'p50')} | ${ms(st, 'p95')} | ${ms(st, 'max')} |`);
    }
    parts.push('');
  }
  const failed = report.results.filter((r) => r.status === 'fail' || r.status === 'error');
  if (failed.length > 0) {
    parts.push('### Failures', '');
    for (const r of failed.slice(0, MAX_FAILURES_LISTED)) parts.push(failureItem(r));
    if (failed.length > MAX_FAILURES_LISTED) parts.push(`- …and ${failed.length - MAX_FAILURES_LISTED} more (see the JSON report)`);
    parts.push('');
  }
  parts.push(...snapshotSection(failed), ...quietSection(report.results));
  parts.push('<details><summary>Every result</summary>', '', '| | test | transport | repeats | p50 |', '|---|---|---|--:|--:|');
  for (const r of report.results) {
    parts.push(`| ${MARK[r.status]} | ${cell(r.id)} | ${r.transport} | ${repeatsText(r)} | ${ms(r.wall_ms, 'p50')} |`);
  }
  parts.push('', '</details>', '', '');
  return parts.join('\n');
}

/** The diffs of failed snapshots, snapshot (`-`) to received (`+`), each cut to `MAX_DIFF_LINES`. */
function snapshotSection(failed: readonly TestResult[]): string[] {
  const diffs = failed.flatMap((r) => snapshotDiffs(r).map((d) => ({ r, ...d })));
  if (diffs.length === 0) return [];
  const parts = ['### Snapshot diffs', ''];
  for (const { r, assertion, diff } of diffs.slice(0, MAX_FAILURES_LISTED)) {
    const lines = diff.replace(/\n$/, '').split('\n').map(escapeControls);
    const shown = lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more lines (see the JSON report)`] : lines;
    parts.push(`**${cell(r.id)}** [${r.transport}] \`${code(`${r.file}:${assertion.line}`)}\``, '', codeBlock(shown.join('\n'), 'diff'), '');
  }
  if (diffs.length > MAX_FAILURES_LISTED) parts.push(`…and ${diffs.length - MAX_FAILURES_LISTED} more (see the JSON report)`, '');
  return parts;
}

/** Tests whose executions ended by quiet: passing or not, the flow may have been cut short. */
function quietSection(results: readonly TestResult[]): string[] {
  const quiet = results.flatMap((r) => {
    const text = quietEndText(r);
    return text === undefined ? [] : [`- **${cell(r.id)}** [${r.transport}]: ${text}`];
  });
  if (quiet.length === 0) return [];
  const more = quiet.length > MAX_FAILURES_LISTED ? [`- …and ${quiet.length - MAX_FAILURES_LISTED} more (see the JSON report)`] : [];
  return ['### Ended by quiet', '', 'No `until` rule said these executions were over: they ended when nothing more came, so a flow cut short would pass.', '', ...quiet.slice(0, MAX_FAILURES_LISTED), ...more, ''];
}

const MAX_DIFF_LINES = 60;

const MARK: Record<TestResult['status'], string> = { pass: '✅', fail: '❌', error: '❌', skip: '⏭️', not_run: '⏹️' };

function failureItem(r: TestResult): string {
  const first = groupAssertions(r, 'fail').slice(0, 5);
  const details = first.map((g) => `  - \`${code(`${r.file}:${g.assertion.line}`)}\` ${cell(g.assertion.message)}`);
  // With one repeat the summary line ("0 of 1 repeat passed") only repeats the details.
  const why = r.repeat > 1 ? `: ${cell(r.message)}` : '';
  return [`- **${cell(r.id)}** [${r.transport}]${why}`, ...details].join('\n');
}

function ms(s: LatencyStats | null, key: 'p50' | 'p95' | 'max'): string {
  return s ? formatMs(s[key]) : '-';
}

/** A table cell or list item: one line, no control character, no column breaks, no HTML. */
export function cell(text: string): string {
  return escapeControls(text.replace(/ +/g, ' ')).replace(/[|\\`*_<>[\]]/g, (c) => `\\${c}`);
}

function code(text: string): string {
  return safeText(text).replace(/`/g, "'");
}

/** Workflow command data: `%`, CR and LF are escaped (GitHub's rules). */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow command properties also escape `:` and `,`. */
function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
