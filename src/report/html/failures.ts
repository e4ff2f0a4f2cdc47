import { formatMs } from '../../core/flows/index.js';
import { groupAssertions, idsText } from '../digest.js';
import type { RepeatResult, RunReport, TestResult } from '../model.js';
import { diffPre, esc, escLines, scrollBox } from './charts.js';
import { dataOf, executionPicture } from './parts.js';

/** Failures shown whole, with the picture of a failed execution; those after are listed a line each. */
const SHOWN_WHOLE = 20;
/** Failed repeats whose ids on the tenant a failure lists; the others are under Results. */
const SHOWN_IDS = 3;

/**
 * Every failed test × transport, open: its failed assertions (expected vs actual, at
 * file:line:col, a snapshot's diff in lines), its ids on the tenant, and — without a click — the
 * waterfall (HTTPS) or message timeline (WebSocket) of its first failed execution, the failing
 * step and the budgets marked.
 */
export function failures(report: RunReport, cap: number): string {
  const failed = report.results.filter((r) => r.status === 'fail' || r.status === 'error');
  if (failed.length === 0) return '<section id="failures" aria-labelledby="failures-h"><h2 id="failures-h">Failures</h2><p class="pass">none</p></section>';
  const whole = failed.slice(0, SHOWN_WHOLE).map((r) => failure(r, cap));
  const rest = failed.slice(SHOWN_WHOLE).map((r) => `<li class="failure" ${dataOf(r)}><span class="mono">${esc(r.id)}</span> [${r.transport}] — ${esc(r.message)}</li>`);
  const more = rest.length === 0 ? '' : `<p class="muted">${rest.length} more failures, each under Results:</p><ul>${rest.join('')}</ul>`;
  return `<section id="failures" aria-labelledby="failures-h"><h2 id="failures-h">Failures (${failed.length})</h2>${whole.join('')}${more}</section>`;
}

function failure(r: TestResult, cap: number): string {
  const rows = groupAssertions(r, 'fail').map((g) => {
    const a = g.assertion;
    const times = r.repeat > 1 && g.repeats > 0 ? ` (${g.repeats} of ${r.repeat} repeats)` : '';
    const diff = a.diff === undefined ? '' : diffPre(a.diff);
    return `<tr><td class="mono" data-label="where">${esc(`${r.file}:${a.line}:${a.col}`)}</td><td data-label="assertion">${esc(a.label)}${esc(times)}</td><td class="expected" data-label="expected"><pre>${escLines(a.expected ?? '')}</pre></td><td class="actual" data-label="actual"><pre>${escLines(a.actual ?? a.message)}</pre>${diff}</td></tr>`;
  });
  const withIds = r.repeats.filter((x) => (x.status === 'fail' || x.status === 'error') && x.ids);
  const ids = withIds.slice(0, SHOWN_IDS).map((x) => `<div class="ids">on the tenant${r.repeat > 1 ? ` (repeat ${x.index})` : ''}: <code>${esc(idsText(x.ids))}</code></div>`);
  if (withIds.length > SHOWN_IDS) ids.push(`<div class="ids muted">and ${withIds.length - SHOWN_IDS} more failed repeats, each with its ids under Results</div>`);
  const table = rows.length === 0 ? '' : scrollBox(`failed assertions of ${r.id} [${r.transport}]`, `<table class="assertions"><thead><tr><th scope="col">where</th><th scope="col">assertion</th><th scope="col">expected</th><th scope="col">actual</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
  const first = firstFailed(r);
  const picture = first === undefined ? '' : `<h4>repeat ${first.index}${first.wall_ms === null ? '' : ` · ${esc(formatMs(first.wall_ms))}`}${first.ended_by ? ` · ended by ${first.ended_by}` : ''}</h4>${first.error ? `<p class="fail">${esc(first.error)}</p>` : ''}${executionPicture(r, first, cap)}`;
  return `<article class="failure" ${dataOf(r)}><h3><span class="fail" aria-hidden="true">✗</span> <span class="mono">${esc(r.id)}</span> [${r.transport}] <span class="muted mono">${esc(`${r.file}:${r.line}`)}</span></h3><p>${esc(r.message)}</p>${table}${ids.join('')}${picture}</article>`;
}

/** The execution a failure is best seen in: the first failed repeat that ran (with its steps or messages). */
function firstFailed(r: TestResult): RepeatResult | undefined {
  const failed = r.repeats.filter((x) => x.status === 'fail' || x.status === 'error');
  return failed.find((x) => x.steps.length > 0 || x.messages.length > 0) ?? failed[0];
}
