import type { MetricComparison, RunComparison, TestComparison, TestRef, Verdict } from '../../core/compare/index.js';
import { formatMs } from '../../core/flows/index.js';
import { escapeControls, jsonText } from '../../core/text/safe-text.js';
import { cell } from '../github.js';

/** `report compare`'s output formats: functions of the comparison, and of the two files' names. */
export type CompareFormat = 'text' | 'markdown' | 'json';
export const COMPARE_FORMATS: readonly CompareFormat[] = ['text', 'markdown', 'json'];

export interface CompareFiles {
  base: string;
  head: string;
}

export function renderComparison(c: RunComparison, files: CompareFiles, format: CompareFormat): string {
  return format === 'json' ? `${jsonText({ format_version: 1, base: files.base, head: files.head, ...c }, 2)}\n` : format === 'markdown' ? renderMarkdown(c, files) : renderText(c, files);
}

const VERDICT_TEXT: Record<Verdict, string> = {
  regression: 'REGRESSION',
  improvement: 'faster',
  unchanged: 'no significant change',
  not_enough_samples: 'not enough samples',
  no_samples: 'no samples',
};

/** Plain text: one block per test × transport, then the pass/fail changes and the verdict. */
export function renderText(c: RunComparison, files: CompareFiles): string {
  const out = [`roleflow report compare ${escapeControls(files.base)} → ${escapeControls(files.head)}`, `${criteria(c)}`, ''];
  for (const t of c.tests) {
    out.push(`${escapeControls(t.id)} [${t.transport}]  ${passRate(t.base)} → ${passRate(t.head)}`);
    out.push(`  ${metricText('wall-clock', t.wall)}`);
    for (const s of t.steps) out.push(`  ${metricText(`step ${escapeControls(s.service)}`, s)}`);
  }
  if (c.tests.length > 0) out.push('');
  const list = (title: string, refs: readonly TestRef[], detail?: (r: TestRef) => string) => {
    if (refs.length === 0) return;
    out.push(`${title} (${refs.length}):`);
    for (const r of refs) out.push(`  ${escapeControls(`${r.file}:${r.line}`)}  ${escapeControls(r.id)} [${r.transport}]${detail ? detail(r) : ''}`);
  };
  list('Newly failing', c.newly_failing, (r) => `: ${escapeControls(messageOf(c, r))}`);
  list(notJudgedTitle(c), c.not_judged, (r) => `: ${unjudged(r as RunComparison['not_judged'][number])}`);
  list('Newly passing', c.newly_passing);
  list('Added', c.added);
  list('Removed', c.removed);
  out.push(verdictLine(c), '');
  return out.join('\n');
}

/** Markdown for a pull-request comment or job summary: tables of latencies and the changes. */
export function renderMarkdown(c: RunComparison, files: CompareFiles): string {
  const out = [`## ${c.failing ? '❌' : '✅'} roleflow: ${escapeControls(verdictLine(c))}`, '', `\`${code(files.base)}\` → \`${code(files.head)}\` · ${criteria(c)}`, ''];
  if (c.tests.length > 0) {
    out.push('| test | transport | latency | p50 | p95 | p | verdict | pass |', '|---|---|---|--:|--:|--:|---|--:|');
    for (const t of c.tests) {
      const rows: [string, MetricComparison][] = [['wall-clock', t.wall], ...t.steps.map((s): [string, MetricComparison] => [`step ${s.service}`, s])];
      rows.forEach(([label, m], i) => {
        const pass = i === 0 ? `${passRate(t.base)} → ${passRate(t.head)}` : '';
        out.push(`| ${i === 0 ? cell(t.id) : ''} | ${i === 0 ? t.transport : ''} | ${cell(label)} | ${change(m, 'p50')} | ${change(m, 'p95')} | ${pText(m)} | ${m.verdict === 'regression' ? '**regression**' : VERDICT_TEXT[m.verdict]} | ${pass} |`);
      });
    }
    out.push('');
  }
  const list = (title: string, refs: readonly TestRef[], detail?: (r: TestRef) => string) => {
    if (refs.length === 0) return;
    out.push(`### ${title} (${refs.length})`, '');
    for (const r of refs) out.push(`- **${cell(r.id)}** [${r.transport}] \`${code(`${r.file}:${r.line}`)}\`${detail ? detail(r) : ''}`);
    out.push('');
  };
  list('Newly failing', c.newly_failing, (r) => `: ${cell(messageOf(c, r))}`);
  list(notJudgedTitle(c), c.not_judged, (r) => `: ${unjudged(r as RunComparison['not_judged'][number])}`);
  list('Newly passing', c.newly_passing);
  list('Added', c.added);
  list('Removed', c.removed);
  return out.join('\n');
}

function criteria(c: RunComparison): string {
  return `regression: p50 or p95 up more than ${percent(c.threshold, false)} and Mann–Whitney p < ${c.alpha} (at least ${c.min_samples} samples a side)`;
}

function verdictLine(c: RunComparison): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const parts = [n(c.regressions, 'regression'), `${c.newly_failing.length} newly failing`, `${c.not_judged.length} not judged`, `${c.newly_passing.length} newly passing`, `${c.added.length} added`, `${c.removed.length} removed`];
  return parts.join(', ');
}

function notJudgedTitle(c: RunComparison): string {
  return c.allow_skipped ? 'Not judged, allowed (--allow-skipped)' : 'Not judged (a regression; --allow-skipped accepts them)';
}

function unjudged(r: RunComparison['not_judged'][number]): string {
  return r.head === 'not_run' ? 'not run in HEAD' : `skipped in HEAD, ${r.base ?? 'absent'} in BASE`;
}

function metricText(label: string, m: MetricComparison): string {
  const counts = `n ${m.base?.count ?? 0} → ${m.head?.count ?? 0}`;
  return `${label.padEnd(16)} p50 ${change(m, 'p50')}  p95 ${change(m, 'p95')}  ${counts}  ${pText(m)}  ${VERDICT_TEXT[m.verdict]}`;
}

function change(m: MetricComparison, key: 'p50' | 'p95'): string {
  const before = m.base ? formatMs(m.base[key]) : '-';
  const after = m.head ? formatMs(m.head[key]) : '-';
  const delta = m.change[key];
  return `${before} → ${after}${delta === null ? '' : ` (${percent(delta, true)})`}`;
}

function pText(m: MetricComparison): string {
  return m.p === null ? 'p -' : m.p < 0.001 ? 'p < 0.001' : `p ${m.p.toFixed(3)}`;
}

function percent(fraction: number, signed: boolean): string {
  const value = Math.round(fraction * 1000) / 10;
  return `${signed && value > 0 ? '+' : ''}${value}%`;
}

function passRate(side: TestComparison['base']): string {
  return `${side.status} ${side.passed}/${side.repeat}`;
}

function messageOf(c: RunComparison, r: TestRef): string {
  return c.tests.find((t) => t.id === r.id && t.transport === r.transport)?.head.message ?? '';
}

function code(text: string): string {
  return escapeControls(text).replace(/`/g, "'");
}
