import type { MetricComparison } from '../compare/index.js';
import { formatMs } from '../flows/duration.js';
import { codeBlock, mdCode, mdText } from '../plan/render/markdown-parts.js';
import { GITHUB_COMMENT_LIMIT } from '../plan/render/markdown.js';
import { plural, thousands } from '../roles/display.js';
import { escapeControls } from '../text/safe-text.js';
import { isRegression, latencyChanged, verdictChanged, type PreviewComparison, type TestPreview } from './compare.js';
import type { PreviewDocument } from './document.js';

/** `roleflow preview`'s text and markdown: functions of its JSON document. */

/** What an interrupted preview's comparison says of itself. */
export const INCOMPLETE = 'Interrupted: the tests that did not run on a side show as skipped or not in it, so this comparison is incomplete.';

export function renderPreviewText(doc: PreviewDocument): string {
  const { summary } = doc;
  const out = [
    `roleflow preview — tenant ${escapeControls(doc.tenant)}${doc.contaminated ? '  CONTAMINATED' : ''}${doc.interrupted ? '  INTERRUPTED' : ''}`,
    `base  ${sideLabel(doc.base)}`,
    `head  ${sideLabel(doc.head)}`,
    summaryLine(summary),
    '',
  ];
  for (const t of ordered(doc.tests)) {
    if (!isNotable(t)) continue;
    out.push(`${kindOf(t).padEnd(10)} ${escapeControls(`${t.file}:${t.line}`)}  ${escapeControls(t.id)} [${t.transport}]  ${verdicts(t)}`);
    if (verdictChanged(t) && t.head && t.head.verdict !== 'passed') out.push(`  head: ${escapeControls(t.head.message)}`);
    if (t.steps_changed) out.push(`  steps: ${(t.base_steps ?? []).map(escapeControls).join(' → ')}  ⇒  ${(t.head_steps ?? []).map(escapeControls).join(' → ')}`);
    if (t.outputs_diff !== undefined) for (const line of t.outputs_diff.split('\n').filter((l) => l !== '')) out.push(`  ${escapeControls(line)}`);
    for (const m of latencyLines(t)) out.push(`  ${m}`);
  }
  if (summary.unchanged > 0) out.push(`${plural(summary.unchanged, 'test')} unchanged.`);
  if (doc.contaminated) out.push(`The tenant's Roles changed while the tests ran (${doc.contamination.map(escapeControls).join('; ')}): someone else used the preview tenant, so the comparison cannot be trusted.`);
  if (doc.interrupted) out.push(INCOMPLETE);
  return `${out.join('\n')}\n`;
}

/**
 * The comparison as a pull-request comment section, never longer than `maxChars`: the tests whose
 * verdict changed first, then changed outputs and steps, then latency; what does not fit is named
 * as cut. `marker` becomes a hidden `<!-- marker -->` line.
 */
export function renderPreviewMarkdown(doc: PreviewDocument, opts: { maxChars?: number; marker?: string } = {}): string {
  const max = opts.maxChars ?? GITHUB_COMMENT_LIMIT;
  const head = [
    ...(opts.marker === undefined ? [] : [`<!-- ${opts.marker} -->`]),
    `### Behaviour diff — tenant ${mdCode(doc.tenant)}${doc.contaminated ? ' ⚠️ contaminated' : ''}${doc.interrupted ? ' ⚠️ interrupted' : ''}`,
    '',
    `Base ${mdText(sideLabel(doc.base))} · head ${mdText(sideLabel(doc.head))}`,
    '',
    `**${mdText(summaryLine(doc.summary))}**`,
    '',
    ...(doc.contaminated ? [`> ⚠️ The tenant's Roles changed while the tests ran: ${mdText(doc.contamination.join('; '))}. Run the preview again.`, ''] : []),
    ...(doc.interrupted ? [`> ⚠️ ${mdText(INCOMPLETE)}`, ''] : []),
  ].join('\n');
  const notable = ordered(doc.tests).filter(isNotable);
  const tail = doc.summary.unchanged > 0 ? `\n${plural(doc.summary.unchanged, 'test')} unchanged.\n` : '\n';
  if (notable.length === 0) return `${head}\nNo test changed its verdict, outputs, steps or latency.\n`;
  const table = ['| | Test | Base | Head |', '|---|---|---|---|', ...notable.map(tableRow)].join('\n') + '\n';
  const details = notable.map(detailsOf).filter((d) => d !== '');
  const parts = [head, table];
  let used = size(parts) + tail.length;
  let cut = 0;
  for (const d of details) {
    // Room is kept for the line that says what was cut.
    if (used + d.length + 120 > max) {
      cut++;
      continue;
    }
    parts.push(d);
    used += d.length;
  }
  if (size(parts) + tail.length > max) return fitRows(head, notable, max);
  if (cut > 0) parts.push(`\n_${plural(cut, 'test')}'s details not shown to fit the comment; run \`roleflow preview\` for all of them._\n`);
  parts.push(tail);
  return parts.join('\n');
}

/** Only the table's first rows fit: as many as do, and how many more there are. */
function fitRows(head: string, notable: readonly TestPreview[], max: number): string {
  const rows = notable.map(tableRow);
  const more = (n: number) => `\n… ${thousands(n)} more changed tests not shown; run \`roleflow preview\` for all of them.\n`;
  let text = `${head}\n| | Test | Base | Head |\n|---|---|---|---|\n`;
  let shown = 0;
  while (shown < rows.length && text.length + rows[shown]!.length + 1 + more(rows.length).length <= max) text += `${rows[shown++]}\n`;
  return shown < rows.length ? text + more(rows.length - shown) : text;
}

function tableRow(t: TestPreview): string {
  const shown = (v: TestPreview['base']) => (v === null ? '—' : `${VERDICT_ICON[v.verdict]} ${v.verdict}`);
  return `| ${KIND_ICON[kindOf(t)]} | ${mdCode(`${t.id} [${t.transport}]`)} | ${shown(t.base)} | ${shown(t.head)} |`;
}

function detailsOf(t: TestPreview): string {
  const body: string[] = [];
  if (verdictChanged(t) && t.head && t.head.verdict !== 'passed') body.push(`Head: ${mdText(t.head.message)}`);
  if (t.steps_changed) body.push(`Steps: ${mdText((t.base_steps ?? []).join(' → '))} ⇒ ${mdText((t.head_steps ?? []).join(' → '))}`);
  const latency = latencyLines(t);
  if (latency.length > 0) body.push(latency.map((l) => `- ${mdText(l)}`).join('\n'));
  if (t.outputs_diff !== undefined) body.push(fenced(t.outputs_diff));
  if (body.length === 0) return '';
  return `<details${isRegression(t) ? ' open' : ''}><summary>${mdCode(`${t.id} [${t.transport}]`)}: ${kindOf(t)}</summary>\n\n${body.join('\n\n')}\n\n</details>\n`;
}

function fenced(diff: string): string {
  return codeBlock(diff.split('\n').map(escapeControls).join('\n'), 'diff');
}

type Kind = 'REGRESSION' | 'fixed' | 'verdict' | 'outputs' | 'steps' | 'latency' | 'unchanged';

const KIND_ICON: Record<Kind, string> = { REGRESSION: '🔴', fixed: '🟢', verdict: '🟡', outputs: '✏️', steps: '🔀', latency: '⏱️', unchanged: '' };
const VERDICT_ICON = { passed: '✅', failed: '❌', skipped: '⏭️' } as const;

function kindOf(t: TestPreview): Kind {
  if (isRegression(t)) return 'REGRESSION';
  if (t.base?.verdict === 'failed' && t.head?.verdict === 'passed') return 'fixed';
  if (verdictChanged(t)) return 'verdict';
  if (t.outputs_changed) return 'outputs';
  if (t.steps_changed) return 'steps';
  if (latencyChanged(t)) return 'latency';
  return 'unchanged';
}

function isNotable(t: TestPreview): boolean {
  return kindOf(t) !== 'unchanged';
}

const RANK: Record<Kind, number> = { REGRESSION: 0, fixed: 1, verdict: 2, outputs: 3, steps: 4, latency: 5, unchanged: 6 };

/** Verdict changes first (regressions at the top), then outputs, steps, latency; stable within each. */
function ordered(tests: readonly TestPreview[]): TestPreview[] {
  return tests.map((t, i) => ({ t, i })).sort((a, b) => RANK[kindOf(a.t)] - RANK[kindOf(b.t)] || a.i - b.i).map(({ t }) => t);
}

function verdicts(t: TestPreview): string {
  return `${t.base?.verdict ?? '(not in base)'} → ${t.head?.verdict ?? '(not in head)'}`;
}

function latencyLines(t: TestPreview): string[] {
  const lines: string[] = [];
  if (t.wall !== null && (t.wall.verdict === 'regression' || t.wall.verdict === 'improvement')) lines.push(metricLine('wall-clock', t.wall));
  for (const s of t.step_latency) lines.push(metricLine(`step ${escapeControls(s.service)}`, s));
  return lines;
}

function metricLine(label: string, m: MetricComparison): string {
  const pct = (c: number | null) => (c === null ? '' : ` (${c >= 0 ? '+' : ''}${Math.round(c * 100)}%)`);
  const p = m.p === null ? '' : `, p=${m.p < 0.001 ? '<0.001' : m.p.toFixed(3)}`;
  return `${label} p50 ${formatMs(m.base!.p50)} → ${formatMs(m.head!.p50)}${pct(m.change.p50)}${p}: ${m.verdict === 'regression' ? 'slower' : 'faster'}`;
}

function summaryLine(s: PreviewComparison['summary']): string {
  const parts = [
    plural(s.regressions, 'regression'),
    `${s.fixed} fixed`,
    `${s.verdict_changed} verdicts changed`,
    `${s.outputs_changed} outputs changed`,
    `${s.steps_changed} step sequences changed`,
    `${s.latency_changed} latency changes`,
    `${s.unchanged} unchanged`,
  ];
  return `${plural(s.tests, 'test')} × transport: ${parts.join(', ')}`;
}

function sideLabel(side: PreviewDocument['base'] | PreviewDocument['head']): string {
  const commit = side.commit === null ? 'no commit' : side.commit.slice(0, 12);
  if ('report' in side && side.report !== undefined) return `report ${escapeControls(side.report)} (${commit}${side.age === undefined ? '' : `, ${side.age} old`})`;
  if ('ref' in side && side.ref !== null && side.ref !== undefined) return `${escapeControls(side.ref)} (${commit})`;
  return `work tree at ${commit}${'dirty' in side && side.dirty ? ' with uncommitted changes' : ''}`;
}

function size(parts: readonly string[]): number {
  return parts.reduce((n, p) => n + p.length + 1, 0);
}
