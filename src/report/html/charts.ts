import { formatMs, percentileOfSorted } from '../../core/flows/index.js';
import { maxOf } from '../../core/text/lists.js';
import { escapeControls } from '../../core/text/safe-text.js';
import type { MessageRecord } from '../model.js';

/**
 * The HTML report's pictures as inline SVG, drawn on the server (readable without JavaScript).
 * Every text in them goes through `esc`.
 */

/** Text for HTML text and attribute values: control characters shown escaped, markup characters as entities. */
export function esc(text: string): string {
  return escapeControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A text of several lines (a diff, a value) for a `<pre>`: each line escaped, the line breaks kept. */
export function escLines(text: string): string {
  return text.split('\n').map(esc).join('\n');
}

/** A unified diff in a `<pre class="diff">`, line by line: added lines marked `add`, removed ones `del`. */
export function diffPre(diff: string): string {
  return `<pre class="diff">${diff.replace(/\n$/, '').split('\n').map(diffLine).join('\n')}</pre>`;
}

function diffLine(line: string): string {
  const cls = line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : '';
  return cls === '' ? esc(line) : `<span class="${cls}">${esc(line)}</span>`;
}

/**
 * A table in a box of its own that scrolls sideways when the table is wider than the page (the
 * page itself never does); focusable, so a keyboard can scroll it, and named for a screen reader.
 */
export function scrollBox(label: string, table: string): string {
  return `<div class="scroll" tabindex="0" role="group" aria-label="${esc(label)}">${table}</div>`;
}

/** Dots one distribution draws at most; a page of many charts draws fewer each (`dotsPerChart`). */
export const MAX_DOTS = 400;

/** A latency axis from 0 to `hi` ms, shared by the charts that should be compared. */
export interface Axis {
  hi: number;
}

/** The axis that holds every sample of `groups`, with a little room on the right. */
export function axisOf(samples: Iterable<number>): Axis {
  return { hi: Math.max(1, maxOf(samples, 0) * 1.05) };
}

/**
 * The distribution of `samples` (ms) on `axis` (shared by the charts to compare): every sample as
 * a dot (at most `maxDots`, evenly picked) over a box from p25 to p75 with whiskers to min and
 * max, and p50, p95 and p99 marked and labelled. As wide as its box: the x coordinates are
 * percentages, the text keeps its size.
 */
export function distributionSvg(samples: readonly number[], label: string, axis: Axis = axisOf(samples), maxDots = MAX_DOTS): string {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return `<p class="muted">${esc(label)}: no samples</p>`;
  const x = (ms: number) => `${pct(ms / axis.hi)}%`;
  const q = (p: number) => percentileOfSorted(sorted, p)!;
  const points = [['p50', q(50)], ['p95', q(95)], ['p99', q(99)]] as const;
  const marks = points.map(([name, ms]) => `<line class="mark ${name}" x1="${x(ms)}" x2="${x(ms)}" y1="8" y2="38"/>`);
  const legend = points.map(([name, ms], i) => `<text class="mark-label ${name}" x="${i * 34}%" y="52">${name} ${esc(formatMs(ms))}</text>`);
  // Past a few hundred samples the dots are one smear: every k-th is drawn (the box and marks use all).
  const step = Math.ceil(sorted.length / Math.max(1, maxDots));
  const dots = sorted.filter((_, i) => i % step === 0).map((ms, i) => `<circle class="sample" cx="${x(ms)}" cy="${18 + (i % 5) * 3}" r="2.5"><title>${esc(formatMs(ms))}</title></circle>`);
  return [
    `<figure class="chart"><figcaption>${esc(label)} · ${sorted.length} sample${sorted.length === 1 ? '' : 's'}</figcaption>`,
    `<svg class="dist" width="100%" height="56" role="img" aria-label="${esc(`${label}: p50 ${formatMs(q(50))}, p95 ${formatMs(q(95))}, max ${formatMs(sorted.at(-1)!)}`)}">`,
    `<line class="axis" x1="0%" x2="100%" y1="38" y2="38"/>`,
    `<line class="whisker" x1="${x(sorted[0]!)}" x2="${x(sorted.at(-1)!)}" y1="24" y2="24"/>`,
    `<rect class="box" x="${x(q(25))}" y="14" width="${pct(Math.max(0.002, (q(75) - q(25)) / axis.hi))}%" height="20"/>`,
    ...dots,
    ...marks,
    ...legend,
    '</svg></figure>',
  ].join('');
}

/** The axis under a column of charts that share it: 0, its middle and its end. */
export function axisLegend(axis: Axis): string {
  return `<div class="axis-legend muted" aria-hidden="true"><span>0</span><span>${esc(formatMs(Math.round(axis.hi / 2)))}</span><span>${esc(formatMs(Math.round(axis.hi)))}</span></div>`;
}

/** A fraction as a percentage with two decimals, within 0–100. */
export function pct(fraction: number): number {
  return Math.round(Math.min(1, Math.max(0, fraction)) * 10000) / 100;
}

/** The most steps or messages one execution's picture draws; past it a sample, said so. */
export const MAX_DRAWN = 500;

/** A WebSocket execution's messages on a time line (`at_ms`; in arrival order when not recorded); past `cap`, a sample. */
export function timelineSvg(messages: readonly MessageRecord[], wallMs: number | null, cap = MAX_DRAWN): string {
  if (messages.length === 0) return '<p class="muted">no messages received</p>';
  const timed = messages.every((m) => m.at_ms !== undefined);
  const end = maxOf(
    messages.map((m) => m.at_ms ?? 0),
    Math.max(1, wallMs ?? 0),
  );
  // A little room at each end, so the first and last dots and labels are whole.
  const at = (m: MessageRecord, i: number) => 2 + 96 * ((timed ? m.at_ms! : i) / (timed ? end : Math.max(1, messages.length - 1)));
  const failing = (m: MessageRecord) => m.status_code !== null && m.status_code >= 400;
  const drawn = sampled(messages.length, cap, (i) => failing(messages[i]!));
  const dots = drawn.map((index, i) => {
    const m = messages[index]!;
    const x = at(m, index);
    const anchor = x < 12 ? 'start' : x > 88 ? 'end' : 'middle';
    const tip = `${m.state}${m.node_id ? ` ${m.node_id}` : ''}${m.status_code !== null ? ` ${m.status_code}` : ''}${m.at_ms !== undefined ? ` at ${formatMs(m.at_ms)}` : ''}${m.message_id ? ` (messageId ${m.message_id})` : ''}`;
    return `<circle class="msg ${m.state === 'ack' ? 'ack' : failing(m) ? 'fail' : 'pass'}" cx="${pct(x / 100)}%" cy="20" r="5"><title>${esc(tip)}</title></circle><text class="msg-label" x="${pct(x / 100)}%" y="${38 + (i % 2) * 11}" text-anchor="${anchor}">${esc(clip(m.node_id || m.state, 20))}</text>`;
  });
  const label = `message timeline: ${messages.length} message${messages.length === 1 ? '' : 's'}${timed ? ` over ${formatMs(end)}` : ''}`;
  return `${sampleNote(drawn.length, messages.length, 'messages')}<svg class="timeline" width="100%" height="64" role="img" aria-label="${esc(label)}"><line class="axis" x1="0%" x2="100%" y1="20" y2="20"/>${dots.join('')}${timed ? `<text class="tick" x="100%" y="62" text-anchor="end">${esc(formatMs(end))}</text>` : ''}</svg>`;
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

export function sampleNote(drawn: number, all: number, what: string): string {
  if (drawn === all) return '';
  return `<p class="muted sampled">showing ${drawn} of ${all} ${what}, sampled to keep the page small (first, last, failures, evenly spaced); the JSON report holds every one</p>`;
}

export function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
