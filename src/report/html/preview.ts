import { INCOMPLETE, type PreviewDocument, type TestPreview } from '../../core/preview/index.js';
import { stableJson } from '../../core/text/stable-json.js';
import { HTML_STYLE } from './assets.js';
import { diffPre, esc, escLines } from './charts.js';
import { htmlPage } from './report.js';
import type { RunReport, TestResult } from '../model.js';

/**
 * `preview --reporter html=FILE`: one self-contained page (no script, no request) with the two
 * sides side by side — each test's verdict, outputs and steps on the base and on the head, and
 * the diff of its outputs. Every text is escaped; the values are redacted before they reach it.
 */
export function renderPreviewHtml(doc: PreviewDocument, reports: { base: RunReport; head: RunReport }): string {
  const key = (r: { id: string; transport: string }) => `${r.id}\u0000${r.transport}`;
  const base = new Map(reports.base.results.map((r) => [key(r), r]));
  const head = new Map(reports.head.results.map((r) => [key(r), r]));
  const changed = doc.tests.filter((t) => t.base?.verdict !== t.head?.verdict || t.outputs_changed || t.steps_changed);
  const s = doc.summary;
  const body = `<main>
<header><h1>roleflow preview <span class="verdict ${s.regressions > 0 || doc.contaminated ? 'fail">' : 'pass">'}${s.regressions > 0 ? `${s.regressions} REGRESSED` : doc.contaminated ? 'CONTAMINATED' : 'NO REGRESSION'}</span></h1>
<div class="run muted"><span>tenant <b class="mono">${esc(doc.tenant)}</b></span><span>base ${esc(baseLabel(doc))}</span><span>head ${esc(headLabel(doc))}</span><span>${doc.executions} executions</span></div>
<p class="totals">${s.tests} tests × transports · <b class="fail">${s.regressions}</b> regressed · <b class="pass">${s.fixed}</b> fixed · ${s.outputs_changed} outputs changed · ${s.steps_changed} step sequences changed · ${s.latency_changed} latency changes · ${s.unchanged} unchanged</p>
${doc.contaminated ? `<p class="fail">The tenant's Roles changed while the tests ran: ${esc(doc.contamination.join('; '))}</p>` : ''}
${doc.interrupted ? `<p class="fail">${esc(INCOMPLETE)}</p>` : ''}
</header>
<section id="tests"><h2>Tests</h2><div class="scroll" tabindex="0" role="group" aria-label="tests"><table><thead><tr><th scope="col">Test</th><th scope="col">Transport</th><th scope="col">Base</th><th scope="col">Head</th><th scope="col">Changed</th></tr></thead><tbody>
${doc.tests.map(row).join('\n')}
</tbody></table></div></section>
<section id="sides"><h2>Side by side</h2>
${changed.length === 0 ? '<p class="muted">No test changed its verdict, outputs or steps.</p>' : changed.map((t) => sideBySide(t, base.get(key(t)), head.get(key(t)))).join('\n')}
</section>
</main>`;
  return htmlPage(`roleflow preview · ${doc.tenant}`, { style: HTML_STYLE + PREVIEW_STYLE }, body);
}

function row(t: TestPreview): string {
  const what = [t.base?.verdict !== t.head?.verdict && 'verdict', t.outputs_changed && 'outputs', t.steps_changed && 'steps', (t.wall?.verdict === 'regression' || t.wall?.verdict === 'improvement' || t.step_latency.length > 0) && 'latency'].filter(Boolean);
  return `<tr data-verdict-changed="${t.base?.verdict !== t.head?.verdict}"><td class="mono" data-label="test">${esc(t.id)}</td><td data-label="transport">${t.transport}</td>${verdictCell('base', t.base)}${verdictCell('head', t.head)}<td data-label="changed">${what.length === 0 ? '<span class="muted">—</span>' : esc(what.join(', '))}</td></tr>`;
}

function verdictCell(label: string, side: TestPreview['base']): string {
  if (side === null) return `<td class="muted" data-label="${label}">not run</td>`;
  const cls = side.verdict === 'passed' ? 'pass' : side.verdict === 'failed' ? 'fail' : 'skip';
  return `<td class="${cls}" data-label="${label}">${side.verdict}</td>`;
}

function sideBySide(t: TestPreview, b: TestResult | undefined, h: TestResult | undefined): string {
  return `<article class="pair" id="${esc(encodeURIComponent(`${t.id}-${t.transport}`))}"><h3 class="mono">${esc(t.id)} [${t.transport}] <span class="muted">${esc(`${t.file}:${t.line}`)}</span></h3>
<div class="sides">${side('Base', t.base, b)}${side('Head', t.head, h)}</div>
${t.outputs_diff === undefined ? '' : `<details open><summary>Outputs diff</summary>${diffPre(t.outputs_diff)}</details>`}
</article>`;
}

function side(label: string, verdict: TestPreview['base'], r: TestResult | undefined): string {
  if (verdict === null || r === undefined) return `<div class="side"><h4>${label}</h4><p class="muted">not run on this side</p></div>`;
  const repeat = r.repeats.find((x) => x.outputs !== undefined || x.steps.length > 0) ?? r.repeats[0];
  const cls = verdict.verdict === 'passed' ? 'pass' : verdict.verdict === 'failed' ? 'fail' : 'skip';
  const steps = repeat && repeat.steps.length > 0 ? `<ol class="steps">${repeat.steps.map((s) => `<li class="${s.status === 'completed' ? '' : 'fail'}">${esc(s.service)} <span class="muted">${esc(s.status)}</span></li>`).join('')}</ol>` : '';
  const outputs = repeat?.outputs === undefined ? '' : `<pre class="outputs">${escLines(stableJson(repeat.outputs))}</pre>`;
  return `<div class="side"><h4>${label}: <span class="${cls}">${verdict.verdict}</span></h4><p>${esc(verdict.message)}</p>${steps}${outputs}</div>`;
}

function baseLabel(doc: PreviewDocument): string {
  const commit = doc.base.commit?.slice(0, 12) ?? 'no commit';
  return doc.base.report !== undefined ? `report ${doc.base.report} (${commit})` : `${doc.base.ref ?? ''} (${commit})`;
}

function headLabel(doc: PreviewDocument): string {
  return `work tree at ${doc.head.commit?.slice(0, 12) ?? 'no commit'}${doc.head.dirty ? ' with uncommitted changes' : ''}`;
}

const PREVIEW_STYLE = `
.scroll{overflow-x:auto}.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}.side{min-width:0;border:1px solid var(--line);border-radius:6px;padding:8px}
.side h4{margin:0 0 6px}.outputs,.diff{background:var(--soft);padding:6px;border-radius:4px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.steps{margin:4px 0;padding-left:20px}.pair{margin:16px 0}
@media (max-width:640px){.sides{grid-template-columns:1fr}body{padding:8px}
#tests table,#tests tbody,#tests tr,#tests td{display:block;width:100%}#tests thead{display:none}#tests tr{border:1px solid var(--line);margin:0 0 6px}
#tests td{border:0;display:flex;gap:8px}#tests td[data-label]::before{content:attr(data-label);flex:0 0 5.5em;font-size:11px;color:var(--muted)}}
`;
