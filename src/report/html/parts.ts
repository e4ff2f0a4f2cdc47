import { formatMs, type AssertionResult } from '../../core/flows/index.js';
import { latencyRowsOf, idsText, missingShardsText, repeatsText } from '../digest.js';
import { diffPre, esc, escLines, MAX_DRAWN, scrollBox, timelineSvg } from './charts.js';
import { budgetMarks, waterfallHtml } from './waterfall.js';
import type { RepeatResult, RunReport, TestResult } from '../model.js';

/** The sections of the HTML report, each a function of the report's data. */

export function runHeader(report: RunReport): string {
  const s = report.summary;
  const facts = [
    `tenant <b class="mono">${esc(report.tenant.name)}</b>`,
    ...(report.commit ? [`commit <code>${esc(report.commit)}</code>`] : []),
    `started <time datetime="${esc(report.started_at)}">${esc(report.started_at)}</time>`,
    `took ${esc(formatMs(report.duration_ms))}`,
    `roleflow ${esc(report.tool.version)}`,
    ...(report.shard ? [`shard ${report.shard.index}/${report.shard.total}`] : []),
    ...(report.missing_shards?.length ? [`<span class="fail">partial: ${esc(missingShardsText(report.missing_shards))}</span>`] : []),
    ...(report.bailed ? ['stopped early by --bail'] : []),
    ...(report.interrupted ? ['<span class="fail">interrupted</span>'] : []),
  ];
  const totals = `<b class="pass">${s.passed}</b> passed · <b class="fail">${s.failed}</b> failed${s.errored > 0 ? ` (${s.errored} errored)` : ''} · <b class="skip">${s.skipped}</b> skipped${s.not_run > 0 ? ` · <b class="not_run">${s.not_run}</b> not run` : ''} · ${s.tests} tests × transports, ${s.executions} executions`;
  return `<header><h1>roleflow test report <span class="verdict ${s.failed > 0 ? 'fail">FAILED' : 'pass">PASSED'}</span></h1><div class="run muted">${facts.map((f) => `<span>${f}</span>`).join('')}</div><p class="totals" id="totals">${totals}</p></header>`;
}

/** Flows × transports: how many tests passed, failed, were skipped, were not run. */
export function matrix(report: RunReport): string {
  const rows = latencyRowsOf(report);
  if (rows.length === 0) return '<section id="matrix" aria-labelledby="matrix-h"><h2 id="matrix-h">Matrix</h2><p class="muted">no tests</p></section>';
  const transports = [...new Set(rows.map((r) => r.transport))].sort();
  const flows = [...new Set(rows.map((r) => r.flow))];
  const body = flows.map((flow) => {
    const cells = transports.map((transport) => {
      const row = rows.find((r) => r.flow === flow && r.transport === transport);
      if (!row) return '<td class="muted">–</td>';
      const kind = row.fail > 0 ? 'cell-fail' : row.pass > 0 ? 'cell-pass' : 'cell-skip';
      const parts = [`<span class="pass">${row.pass} ✓</span>`, ...(row.fail > 0 ? [`<span class="fail">${row.fail} ✗</span>`] : []), ...(row.skip > 0 ? [`<span class="skip">${row.skip} skipped</span>`] : []), ...(row.notRun > 0 ? [`<span class="not_run">${row.notRun} not run</span>`] : [])];
      return `<td class="${kind}" data-flow="${esc(flow)}" data-transport="${transport}" data-pass="${row.pass}" data-fail="${row.fail}" data-skip="${row.skip}" data-not-run="${row.notRun}">${parts.join(' ')}</td>`;
    });
    return `<tr><th scope="row" class="mono">${esc(flow)}</th>${cells.join('')}</tr>`;
  });
  return `<section id="matrix" aria-labelledby="matrix-h"><h2 id="matrix-h">Matrix</h2>${scrollBox('the matrix', `<table class="matrix"><thead><tr><th scope="col">flow</th>${transports.map((t) => `<th scope="col">${t}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`)}</section>`;
}

/** Every test × transport, folded: its repeats with their waterfall or message timeline and assertions. */
export function results(report: RunReport, cap: number): string {
  const shownOf = report.results.map(shownRepeatsOf);
  const items = report.results.map((r, i) => {
    const wall = r.wall_ms ? ` · ${r.repeat > 1 ? 'p50 ' : ''}${esc(formatMs(r.wall_ms.p50))}` : '';
    const ran = r.repeats.filter((x) => x.status !== 'not_run' || x.ended_by);
    const shown = shownOf[i]!;
    const repeats = shown.map((x) => repeatBlock(r, x, cap));
    if (shown.length < ran.length) repeats.push(`<p class="muted">${ran.length - shown.length} more repeats are in the JSON report</p>`);
    return `<details class="result" ${dataOf(r)}><summary><b class="${r.status}">${MARK[r.status]}</b> <span class="mono">${esc(r.id)}</span> [${r.transport}] ${esc(repeatsText(r))}${wall} <span class="muted">${esc(r.message)}</span></summary>${repeats.join('')}</details>`;
  });
  return `<section id="results" aria-labelledby="results-h"><h2 id="results-h">Results (<span id="shown">${report.results.length}</span> of ${report.results.length})</h2>${items.join('')}</section>`;
}

export function filters(report: RunReport): string {
  const flows = [...new Set(report.results.map((r) => r.flow))];
  const options = (values: readonly string[]) => values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join('');
  return `<form id="filters" class="filters" hidden><label>status <select name="status"><option value="">all</option>${options(['pass', 'fail', 'skip', 'not_run'])}</select></label><label>flow <select name="flow"><option value="">all</option>${options(flows)}</select></label><label>transport <select name="transport"><option value="">all</option>${options(['https', 'ws'])}</select></label><label>search <input type="search" name="q" placeholder="test, step, message…"></label></form>`;
}

const MARK: Record<TestResult['status'], string> = { pass: '✓', fail: '✗', error: '✗', skip: '-', not_run: '·' };

/**
 * The page's budget of drawn steps and messages: past it, each execution's picture draws a sample
 * of at most its share (and says so), so a run of any size within the limits gives a page a browser opens.
 */
const PAGE_DRAWN = 40_000;
const MIN_DRAWN = 40;

/** The repeats of each result the page draws (`shownRepeats`), for the picture cap of the whole page. */
export function pictureCapOf(report: RunReport): number {
  return pictureCap(report.results.flatMap(shownRepeatsOf));
}

function shownRepeatsOf(r: TestResult): RepeatResult[] {
  return shownRepeats(r.repeats.filter((x) => x.status !== 'not_run' || x.ended_by));
}

function pictureCap(shown: readonly RepeatResult[]): number {
  let total = 0;
  for (const x of shown) total += Math.min(MAX_DRAWN, x.steps.length + x.messages.length);
  return total <= PAGE_DRAWN ? MAX_DRAWN : Math.max(MIN_DRAWN, Math.floor(PAGE_DRAWN / Math.max(1, shown.length)));
}

function repeatBlock(r: TestResult, x: RepeatResult, cap: number): string {
  const head = `<h3>repeat ${x.index} · <span class="${x.status}">${x.status}</span>${x.wall_ms !== null ? ` · ${esc(formatMs(x.wall_ms))}` : ''}${x.ended_by ? ` · ended by ${x.ended_by}` : ''}</h3>`;
  const ids = x.ids ? `<div class="ids">on the tenant: <code>${esc(idsText(x.ids))}</code></div>` : '';
  const picture = executionPicture(r, x, cap);
  const error = x.error ? `<p class="fail">${esc(x.error)}</p>` : '';
  const rows = x.assertions.map(
    (a) => `<tr><td class="${a.status}">${a.status}</td><td data-label="assertion">${esc(a.label)}</td><td class="expected" data-label="expected"><pre>${escLines(a.expected ?? '')}</pre></td><td class="${a.status === 'fail' ? 'actual' : 'muted'}" data-label="actual"><pre>${escLines(a.actual ?? (a.status === 'pass' ? '' : a.message))}</pre>${a.diff === undefined ? '' : diffPre(a.diff)}${judgeBlock(a)}</td><td class="mono" data-label="where">${esc(`${r.file}:${a.line}`)}</td></tr>`,
  );
  const table = rows.length > 0 ? scrollBox(`assertions of repeat ${x.index} of ${r.id} [${r.transport}]`, `<table class="assertions"><thead><tr><th scope="col">status</th><th scope="col">assertion</th><th scope="col">expected</th><th scope="col">actual</th><th scope="col">where</th></tr></thead><tbody>${rows.join('')}</tbody></table>`) : '';
  return `<div class="repeat">${head}${ids}${error}${picture}${table}</div>`;
}

/** One execution's picture: the waterfall of its steps (HTTPS, with its budgets) or the timeline of its messages (WebSocket). */
export function executionPicture(r: TestResult, x: RepeatResult, cap: number): string {
  return r.transport === 'https' ? waterfallHtml(x.steps, cap, budgetMarks(x.assertions)) : timelineSvg(x.messages, x.wall_ms, cap);
}

/** A judge assertion's verdict: the reasons, one per vote, and the judge executions' ids on the tenant. */
function judgeBlock(a: AssertionResult): string {
  const j = a.judge;
  if (!j) return '';
  const score = j.score === undefined ? '' : ` · score ${Math.round(j.score * 1000) / 1000}`;
  const reasons = j.reasons.map((reason) => `<li>${esc(reason)}</li>`).join('');
  const runs = j.executions.map((e) => `<code>${esc(idsText(e))}</code>`).join(' ');
  return `<div class="judge">judge ${esc(j.judge)}: <b class="${j.verdict === 'pass' ? 'pass' : 'fail'}">${esc(j.verdict)}</b>${esc(score)}${j.cached ? ' (reused)' : ''}${reasons ? `<ul>${reasons}</ul>` : ''}${runs ? `<div class="ids">judge executions: ${runs}</div>` : ''}</div>`;
}

/** Enough repeats to see a test's executions without a page too large to open: the first ones and every failed one, up to a bound. */
const MAX_REPEATS_SHOWN = 25;

function shownRepeats(ran: readonly RepeatResult[]): RepeatResult[] {
  if (ran.length <= MAX_REPEATS_SHOWN) return [...ran];
  const failed = ran.filter((x) => x.status === 'fail' || x.status === 'error').slice(0, MAX_REPEATS_SHOWN);
  const first = ran.filter((x) => !failed.includes(x)).slice(0, Math.max(5, MAX_REPEATS_SHOWN - failed.length));
  return [...first, ...failed].sort((a, b) => a.index - b.index);
}

export function dataOf(r: TestResult): string {
  return `data-status="${r.status}" data-flow="${esc(r.flow)}" data-transport="${r.transport}"`;
}
