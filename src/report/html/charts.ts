import { formatMs, percentile } from '../../core/flows/index.js';
import { maxOf, minOf } from '../../core/text/lists.js';
import { escapeControls } from '../../core/text/safe-text.js';
import type { MessageRecord, StepRecord } from '../model.js';

/**
 * The HTML report's pictures as inline SVG, drawn on the server (readable without JavaScript).
 * Every text in them goes through `esc`.
 */

/** Text for HTML text and attribute values: control characters shown escaped, markup characters as entities. */
export function esc(text: string): string {
  return escapeControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const W = 420;
const MAX_DOTS = 400;
const PAD = 8;

/**
 * The distribution of `samples` (ms): every sample as a dot over a box from p25 to p75 with
 * whiskers to min and max, and p50, p95 and p99 marked and labelled.
 */
export function distributionSvg(samples: readonly number[], label: string): string {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return `<p class="muted">${esc(label)}: no samples</p>`;
  const min = sorted[0]!;
  const max = sorted.at(-1)!;
  const margin = Math.max((max - min) * 0.1, max * 0.02, 1);
  const lo = Math.max(0, min - margin);
  const hi = max + margin;
  const x = (ms: number) => PAD + ((ms - lo) / (hi - lo)) * (W - 2 * PAD);
  const q = (p: number) => percentile(sorted, p)!;
  const points = [['p50', q(50)], ['p95', q(95)], ['p99', q(99)]] as const;
  const marks = points.map(([name, ms]) => `<line class="mark ${name}" x1="${x(ms)}" x2="${x(ms)}" y1="12" y2="46"/>`);
  const legend = points.map(([name, ms], i) => `<text class="mark-label ${name}" x="${PAD + i * 120}" y="62">${name} ${esc(formatMs(ms))}</text>`);
  // Past a few hundred samples the dots are one smear: every k-th is drawn (the box and marks use all).
  const step = Math.ceil(sorted.length / MAX_DOTS);
  const dots = sorted.filter((_, i) => i % step === 0).map((ms, i) => `<circle class="sample" cx="${x(ms)}" cy="${24 + (i % 5) * 3}" r="2.5"><title>${esc(formatMs(ms))}</title></circle>`);
  return [
    `<figure class="chart"><figcaption>${esc(label)} · ${sorted.length} sample${sorted.length === 1 ? '' : 's'}</figcaption>`,
    `<svg class="dist" viewBox="0 0 ${W} 80" width="${W}" height="80" role="img" aria-label="${esc(label)} distribution">`,
    `<line class="axis" x1="${PAD}" x2="${W - PAD}" y1="46" y2="46"/>`,
    `<line class="whisker" x1="${x(min)}" x2="${x(max)}" y1="30" y2="30"/>`,
    `<rect class="box" x="${x(q(25))}" y="20" width="${Math.max(1, x(q(75)) - x(q(25)))}" height="20"/>`,
    ...dots,
    ...marks,
    ...legend,
    `<text class="tick" x="${PAD}" y="77">${esc(formatMs(Math.round(lo)))}</text><text class="tick" x="${W - PAD}" y="77" text-anchor="end">${esc(formatMs(Math.round(hi)))}</text>`,
    '</svg></figure>',
  ].join('');
}

/** The most steps or messages one execution's picture draws; past it a sample, said so. */
export const MAX_DRAWN = 500;

/**
 * One execution's steps as a waterfall: a bar per logged step. Where every step has a
 * `stop_execution` time and a latency, a bar ends at its stop time and starts its latency before;
 * otherwise the steps are laid end to end in log order. A step without a usable latency is a
 * thin bar at its place, marked unknown. Past `cap` steps, a sample of them (`sampled`).
 */
export function waterfallSvg(steps: readonly StepRecord[], cap = MAX_DRAWN): string {
  if (steps.length === 0) return '<p class="muted">no steps logged</p>';
  const spans = stepSpans(steps);
  const end = maxOf(spans.map((s) => s.start + s.ms), 1);
  const labelW = 120;
  const x = (ms: number) => labelW + (ms / end) * (W - labelW - PAD);
  const rowH = 18;
  const drawn = sampled(steps.length, cap, (i) => statusClass(steps[i]!.status) === 'fail');
  const rows = drawn.map((at, i) => {
    const s = steps[at]!;
    const span = spans[at]!;
    const known = s.latency_ms !== null;
    const width = known ? Math.max(2, x(span.start + span.ms) - x(span.start)) : 2;
    const tip = `${s.service}: ${known ? formatMs(s.latency_ms!) : 'latency unknown'} (${s.status})`;
    return (
      `<text class="step-label" x="${labelW - 4}" y="${i * rowH + 13}" text-anchor="end">${esc(clip(s.service, 18))}</text>` +
      `<rect class="bar ${statusClass(s.status)}${known ? '' : ' unknown'}" x="${x(span.start)}" y="${i * rowH + 3}" width="${width}" height="${rowH - 6}"><title>${esc(tip)}</title></rect>` +
      `<text class="bar-label" x="${x(span.start) + width + 3}" y="${i * rowH + 13}">${esc(known ? formatMs(s.latency_ms!) : '?')}</text>`
    );
  });
  const h = drawn.length * rowH + 16;
  return `${sampleNote(drawn.length, steps.length, 'steps')}<svg class="waterfall" viewBox="0 0 ${W + 40} ${h}" width="${W + 40}" height="${h}" role="img" aria-label="step waterfall">${rows.join('')}<text class="tick" x="${labelW}" y="${h - 3}">0</text><text class="tick" x="${W - PAD}" y="${h - 3}" text-anchor="end">${esc(formatMs(end))}</text></svg>`;
}

/** A WebSocket execution's messages on a time line (`at_ms`; in arrival order when not recorded); past `cap`, a sample. */
export function timelineSvg(messages: readonly MessageRecord[], wallMs: number | null, cap = MAX_DRAWN): string {
  if (messages.length === 0) return '<p class="muted">no messages received</p>';
  const timed = messages.every((m) => m.at_ms !== undefined);
  const end = maxOf(
    messages.map((m) => m.at_ms ?? 0),
    Math.max(1, wallMs ?? 0),
  );
  const x = (m: MessageRecord, i: number) => PAD + ((timed ? m.at_ms! : i) / (timed ? end : Math.max(1, messages.length - 1))) * (W - 2 * PAD);
  const failing = (m: MessageRecord) => m.status_code !== null && m.status_code >= 400;
  const drawn = sampled(messages.length, cap, (i) => failing(messages[i]!));
  const dots = drawn.map((at, i) => {
    const m = messages[at]!;
    const tip = `${m.state}${m.node_id ? ` ${m.node_id}` : ''}${m.status_code !== null ? ` ${m.status_code}` : ''}${m.at_ms !== undefined ? ` at ${formatMs(m.at_ms)}` : ''}${m.message_id ? ` (messageId ${m.message_id})` : ''}`;
    return `<circle class="msg ${m.state === 'ack' ? 'ack' : failing(m) ? 'fail' : 'pass'}" cx="${x(m, at)}" cy="20" r="5"><title>${esc(tip)}</title></circle><text class="msg-label" x="${x(m, at)}" y="${38 + (i % 2) * 10}" text-anchor="middle">${esc(clip(m.node_id || m.state, 12))}</text>`;
  });
  return `${sampleNote(drawn.length, messages.length, 'messages')}<svg class="timeline" viewBox="0 0 ${W} 60" width="${W}" height="60" role="img" aria-label="message timeline"><line class="axis" x1="${PAD}" x2="${W - PAD}" y1="20" y2="20"/>${dots.join('')}${timed ? `<text class="tick" x="${W - PAD}" y="58" text-anchor="end">${esc(formatMs(end))}</text>` : ''}</svg>`;
}

/**
 * Which of `n` items a picture draws: all up to `cap`; past it, the first and last, up to a fifth
 * of `cap` of those `notable` (failures), and the rest evenly spaced; in order.
 */
export function sampled(n: number, cap: number, notable: (i: number) => boolean): number[] {
  if (n <= cap) return Array.from({ length: n }, (_, i) => i);
  const chosen = new Set<number>([0, n - 1]);
  for (let i = 0; i < n && chosen.size < 2 + Math.floor(cap / 5); i++) if (notable(i)) chosen.add(i);
  // n > cap: these are distinct; where one meets a failure already chosen, the next free index fills in.
  for (let k = 1; k < cap && chosen.size < cap; k++) chosen.add(Math.floor((k * n) / cap));
  for (let i = 1; chosen.size < cap; i++) chosen.add(i);
  return [...chosen].sort((a, b) => a - b);
}

function sampleNote(drawn: number, all: number, what: string): string {
  if (drawn === all) return '';
  return `<p class="muted sampled">showing ${drawn} of ${all} ${what}, sampled to keep the page small (first, last, failures, evenly spaced); the JSON report holds every one</p>`;
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

function statusClass(status: string): string {
  return /fail|error/i.test(status) ? 'fail' : 'pass';
}

function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
