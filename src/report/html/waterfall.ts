import { formatMs, type AssertionResult } from '../../core/flows/index.js';
import { matchesGlob } from '../../core/text/glob.js';
import { maxOf, minOf } from '../../core/text/lists.js';
import type { StepRecord } from '../model.js';
import { clip, esc, MAX_DRAWN, pct, sampled, sampleNote } from './charts.js';

/** A latency budget to draw over an execution's steps: a step's (`step`: its name or glob) or the total's. */
export interface BudgetMark {
  ms: number;
  step?: string;
  failed: boolean;
  text: string;
}

/** The `max` budgets among an execution's assertions (those judged on it alone), to draw. */
export function budgetMarks(assertions: readonly AssertionResult[]): BudgetMark[] {
  return assertions.flatMap((a) =>
    a.kind === 'latency' && a.budget !== undefined && a.budget.stat === 'max'
      ? [{ ms: a.budget.ms, ...(a.budget.step !== undefined && { step: a.budget.step }), failed: a.status === 'fail', text: a.expected ?? a.label }]
      : [],
  );
}

/**
 * One execution's steps as a waterfall, as wide as its box: a row per logged step, its bar placed
 * in time. Where every step has a `stop_execution` time and a latency, a bar ends at its stop time
 * and starts its latency before; otherwise the steps are laid end to end in log order. A step
 * without a usable latency is a thin bar marked unknown. A failed step, and a step over its
 * budget, is marked (in words too); a step budget is a tick on its rows where the bar should end,
 * the total's a line across. Past `cap` steps, a sample of them, said so.
 */
export function waterfallHtml(steps: readonly StepRecord[], cap = MAX_DRAWN, budgets: readonly BudgetMark[] = []): string {
  if (steps.length === 0) return '<p class="muted">no steps logged</p>';
  const spans = stepSpans(steps);
  const finish = maxOf(spans.map((s) => s.start + s.ms), 1);
  // A total budget within twice the run is drawn on the scale; a larger one is only said.
  const total = budgets.filter((b) => b.step === undefined);
  const onScale = total.filter((b) => b.ms <= finish * 2);
  const end = maxOf(onScale.map((b) => b.ms), finish);
  const x = (ms: number) => `${pct(ms / end)}%`;
  const budgetOf = (service: string) => budgets.filter((b) => b.step !== undefined && matchesGlob(service, b.step));
  const drawn = sampled(steps.length, cap, (i) => isFailed(steps[i]!.status));
  const rows = drawn.map((at) => {
    const s = steps[at]!;
    const span = spans[at]!;
    const known = s.latency_ms !== null;
    const mine = budgetOf(s.service);
    const over = mine.filter((b) => b.failed && known && s.latency_ms! >= b.ms);
    const failed = isFailed(s.status) || over.length > 0;
    const why = [...(isFailed(s.status) ? [`step ${s.status}`] : []), ...over.map((b) => `over ${b.text}`)].join(', ');
    const tip = `${s.service}: ${known ? formatMs(s.latency_ms!) : 'latency unknown'} (${s.status})${why ? ` — ${why}` : ''}`;
    const bar = `<span class="bar ${failed ? 'fail' : 'pass'}${known ? '' : ' unknown'}" style="left:${x(span.start)};width:${known ? x(span.ms) : '2px'}" title="${esc(tip)}"></span>`;
    const ticks = mine.map((b) => `<span class="budget${b.failed ? ' fail' : ''}" style="left:${x(span.start + b.ms)}" title="${esc(`budget ${b.text}`)}"></span>`);
    const lines = onScale.map((b) => `<span class="budget-line${b.failed ? ' fail' : ''}" style="left:${x(b.ms)}"></span>`);
    const value = `${known ? formatMs(s.latency_ms!) : '?'}${why ? ` ✗ ${why}` : ''}`;
    return `<div class="wf-row${failed ? ' fail' : ''}"><span class="wf-label mono" title="${esc(s.service)}">${failed ? '✗ ' : ''}${esc(clip(s.service, 24))}</span><span class="wf-track">${lines.join('')}${bar}${ticks.join('')}</span><span class="wf-ms">${esc(value)}</span></div>`;
  });
  const said = total.map((b) => `<span class="${b.failed ? 'fail' : 'muted'}">total budget ${esc(b.text)}${onScale.includes(b) ? '' : ' (off the scale)'}</span>`);
  const axis = `<div class="wf-row wf-axis muted"><span></span><span class="wf-track"><span class="tick-start">0</span><span class="tick-end">${esc(formatMs(end))}</span></span><span></span></div>`;
  const label = `step waterfall: ${steps.length} step${steps.length === 1 ? '' : 's'} over ${formatMs(finish)}`;
  return `${sampleNote(drawn.length, steps.length, 'steps')}<div class="waterfall" role="group" aria-label="${esc(label)}">${rows.join('')}${axis}${said.length > 0 ? `<div class="wf-budgets">${said.join(' · ')}</div>` : ''}</div>`;
}

function stepSpans(steps: readonly StepRecord[]): { start: number; ms: number }[] {
  const stops = steps.map((s) => (s.stop_execution === undefined ? NaN : Date.parse(s.stop_execution)));
  if (steps.every((s, i) => s.latency_ms !== null && Number.isFinite(stops[i]))) {
    const starts = steps.map((s, i) => stops[i]! - s.latency_ms!);
    const t0 = minOf(starts);
    return steps.map((s, i) => ({ start: starts[i]! - t0, ms: s.latency_ms! }));
  }
  let at = 0;
  return steps.map((s) => {
    const span = { start: at, ms: s.latency_ms ?? 0 };
    at += span.ms;
    return span;
  });
}

function isFailed(status: string): boolean {
  return /fail|error/i.test(status);
}
