import { maxOf } from '../../text/lists.js';
import { policyLines } from '../policy-lines.js';
import { formatIssue } from '../../errors.js';
import { printableLine, thousands } from '../../roles/display.js';
import type { CreateChange, Plan, PlanChange, UpdateChange } from '../types.js';
import { diffLines, planSummaryLine } from './text.js';

/** Lists inside a comment (deleted names, unmanaged Roles, notes, guards) stop here. */
const MAX_LISTED = 20;

/**
 * Text from files and the tenant inside markdown: control characters made visible, then every
 * character markdown or HTML could read as syntax written as an entity, so a Role name cannot
 * break a table, open a link, or inject HTML.
 */
export function mdText(text: string): string {
  return printableLine(text).replace(/[^\p{L}\p{M}\p{N} .,:;/@()+=-]/gu, (ch) => `&#${ch.codePointAt(0)};`);
}

// The Action's markdown uses the same number format.
export { thousands };

export function mdCode(text: string): string {
  return `<code>${mdText(text)}</code>`;
}

/**
 * `text` as a markdown code block (no line break after the closing fence) whose fence no line of
 * the text can close: one backtick longer than the longest run in it, and at least three.
 */
export function codeBlock(text: string, lang = ''): string {
  const longest = maxOf(Array.from(text.matchAll(/`+/g), (m) => m[0].length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

/**
 * The top of the comment. Every Role the plan deletes is named in its warning, whatever else is
 * cut, as long as the names take at most `deleteNamesMax` characters (then as many as fit, and
 * how many more; `seeAll` says where to see them).
 */
export function headMarkdown(plan: Plan, marker: string | undefined, deleteNamesMax = Infinity, seeAll = 'see `roleflow plan`'): string {
  const lines: string[] = [];
  if (marker !== undefined) lines.push(`<!-- ${marker.replace(/-->/g, '')} -->`);
  lines.push(`### roleflow plan for ${mdCode(plan.tenant.name)}`, '', `**${planSummaryLine(plan)}**`, '');
  const deletes = plan.changes.filter((c) => c.action === 'delete');
  if (deletes.length > 0) {
    const names = namesWithin(deletes.map((d) => mdCode(d.name)), deleteNamesMax, (more) => `… and ${thousands(more)} more; ${seeAll}`);
    lines.push('> [!WARNING]', `> This plan **deletes ${thousands(deletes.length)} Role${deletes.length === 1 ? '' : 's'}** from the tenant: ${names}`, '');
  }
  if (plan.guards.length > 0) {
    lines.push('> [!CAUTION]', '> Refused by guards: `roleflow apply` will not run this plan.');
    for (const g of listed(plan.guards.map((x) => mdText(x.message)))) lines.push(`> - ${g}`);
    lines.push('');
  }
  const policy = policyLines(plan);
  if (policy.length > 0) {
    lines.push('**Policy**', '', ...listed(policy.map((l) => mdText(l))).map((l) => `- ${l}`), '');
  }
  if (plan.issues.length > 0) {
    lines.push('> [!CAUTION]', '> Problems in the role files:');
    for (const i of listed(plan.issues.map((x) => mdText(formatIssue(x))))) lines.push(`> - ${i}`);
    lines.push('');
  }
  return lines.join('\n');
}

export function tailMarkdown(plan: Plan): string {
  const lines: string[] = [];
  if (plan.unmanaged.length > 0) {
    const names = listed(plan.unmanaged.map((r) => mdCode(r.name))).join(', ');
    lines.push(`**${thousands(plan.unmanaged.length)} unmanaged** (on the tenant, no role file; \`--prune\` would delete them): ${names}`, '');
  }
  if (plan.notes.length > 0) {
    lines.push('**Notes**', '', ...listed(plan.notes.map((n) => mdText(n))).map((n) => `- ${n}`), '');
  }
  return lines.join('\n');
}

export const TABLE_HEAD = '| | Role | File | Changes |\n|---|---|---|---|\n';

export function tableRow(change: PlanChange): string {
  const role =
    change.action === 'update' && change.before && change.before.name !== change.name
      ? `${mdCode(change.before.name)} → ${mdCode(change.name)}`
      : mdCode(change.name);
  const where = change.file !== undefined ? mdCode(change.file) : change.id !== undefined ? `id ${mdCode(change.id)}` : '';
  const what = change.action === 'update' ? updateCell(change) : change.action === 'create' ? createCell(change) : '**deleted**';
  const symbol = change.action === 'create' ? '➕' : change.action === 'update' ? '✏️' : '🗑️';
  return `| ${symbol} ${change.action} | ${role} | ${where} | ${what} |\n`;
}

/** An update's fields; a changed description old → new (a content change has its diff). */
function updateCell(change: UpdateChange): string {
  const fields = change.fields.join(', ');
  if (!change.fields.includes('description')) return fields;
  return `${fields}<br>description: ${mdCode(capped(change.before.description))} → ${mdCode(capped(change.after.description))}`;
}

/** A new Role: its description and how its content starts, for a reviewer who sees no diff. */
function createCell(change: CreateChange): string {
  const { description, content } = change.after;
  const start = content.split('\n').find((line) => line.trim() !== '') ?? '';
  const parts = ['new Role'];
  if (description !== '') parts.push(`description: ${mdCode(capped(description))}`);
  if (start !== '') parts.push(`content: ${mdCode(capped(start, 80))}`);
  return parts.join('<br>');
}

function capped(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One update's diff, folded; cut to `maxLines` lines of at most `maxLineChars` characters. */
export function diffDetails(change: PlanChange, maxLines: number, maxLineChars: number): string {
  const all = diffLines(change.diff ?? '');
  const first = shortDiff(all, maxLines);
  const kept = first.map((l) => (l.length > maxLineChars ? `${l.slice(0, maxLineChars)}…` : l));
  if (all.length > first.length) kept.push(`… ${thousands(all.length - first.length)} more diff lines not shown`);
  return `<details><summary>✏️ ${mdCode(change.name)}: content diff</summary>\n\n${codeBlock(kept.join('\n'), 'diff')}\n\n</details>\n`;
}

/**
 * The first `maxLines` lines of a unified diff, except that a change cut short keeps both of its
 * sides: a rewrite (every line removed, then every line added) shows how it starts before and
 * after, not only `-` lines.
 */
export function shortDiff(lines: readonly string[], maxLines: number): string[] {
  if (lines.length <= maxLines) return [...lines];
  const kept: string[] = [];
  const sign = (at: number, ch: '-' | '+'): boolean => at >= 2 && at < lines.length && lines[at]!.startsWith(ch);
  let at = 0;
  while (at < lines.length && kept.length < maxLines) {
    if (!sign(at, '-') && !sign(at, '+')) {
      kept.push(lines[at++]!);
      continue;
    }
    let plusFrom = at;
    while (sign(plusFrom, '-')) plusFrom++;
    let end = plusFrom;
    while (sign(end, '+')) end++;
    const room = maxLines - kept.length;
    if (end - at <= room) {
      kept.push(...lines.slice(at, end));
      at = end;
      continue;
    }
    const removed = plusFrom - at;
    const added = end - plusFrom;
    const addedShown = Math.min(added, Math.max(room - removed, Math.floor(room / 2)));
    kept.push(...lines.slice(at, at + Math.min(removed, room - addedShown)), ...lines.slice(plusFrom, plusFrom + addedShown));
    break;
  }
  return kept;
}

/** `names` joined with commas, within `max` characters: as many as fit, then `more(left out)`. */
function namesWithin(names: readonly string[], max: number, more: (hidden: number) => string): string {
  const all = names.join(', ');
  if (all.length <= max) return all;
  let room = max - more(names.length).length - 2;
  let shown = 0;
  while (shown < names.length && names[shown]!.length + 2 <= room) room -= names[shown++]!.length + 2;
  return [...names.slice(0, shown), more(names.length - shown)].join(', ');
}

function listed(items: string[]): string[] {
  if (items.length <= MAX_LISTED) return items;
  return [...items.slice(0, MAX_LISTED), `… ${thousands(items.length - MAX_LISTED)} more`];
}
