import { plural, thousands } from '../../roles/display.js';
import { diffDetails, headMarkdown, TABLE_HEAD, tableRow, tailMarkdown } from './markdown-parts.js';
import type { Plan, PlanChange } from '../types.js';

/** GitHub refuses a comment body longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** Diff cuts tried in turn (lines per diff, characters per line) when full diffs do not fit. */
const DIFF_CUTS = [
  { lines: 60, chars: 400 },
  { lines: 20, chars: 200 },
  { lines: 6, chars: 120 },
];

/** How to see what a cut comment leaves out: the plan of this tenant, `--tenant` and all (a name a shell would mangle is shown as NAME). */
function fullPlan(tenant: string | undefined): string {
  if (tenant === undefined) return 'run `roleflow plan` for the full plan';
  return `run \`roleflow plan --tenant ${/^[A-Za-z0-9._-]+$/.test(tenant) ? tenant : 'NAME'}\` for the full plan`;
}

/**
 * The plan as a pull-request comment, never longer than `maxChars`. What fits is shown in this
 * order of preference: full diffs; diffs cut short; the table without diffs; the first rows of
 * the table (deletes first: every Role deleted is also named at the top). Whatever is cut is said, with how to see it all. `marker` becomes a hidden
 * `<!-- marker -->` line, for finding the comment again.
 */
export function renderPlanMarkdown(plan: Plan, opts: { maxChars?: number; marker?: string } = {}): string {
  const max = opts.maxChars ?? GITHUB_COMMENT_LIMIT;
  const seeAll = fullPlan(plan.tenant.name);
  // The deletes' names may take half the comment: the riskiest changes are never the ones cut.
  const head = headMarkdown(plan, opts.marker, Math.floor(max / 2), seeAll);
  const tail = tailMarkdown(plan);
  if (plan.changes.length === 0) return fitMarkdown([head, tail], max, plan.tenant.name);

  // Deletes first, so a table cut short still lists them.
  const changes = [...plan.changes.filter((c) => c.action === 'delete'), ...plan.changes.filter((c) => c.action !== 'delete')];
  const rows = changes.map(tableRow);
  const table = TABLE_HEAD + rows.join('');
  const withDiffs = changes.filter((c) => c.diff !== undefined);
  const frame = size([head, table, tail]);

  if (frame <= max) {
    const full = [head, table, ...withDiffs.map((c) => diffDetails(c, Infinity, Infinity)), tail];
    if (size(full) <= max) return join(full);
    for (const cut of DIFF_CUTS) {
      const note = `_Diffs are cut to ${cut.lines} lines each to fit the comment; ${seeAll}._\n`;
      const parts = [head, note, table, ...withDiffs.map((c) => diffDetails(c, cut.lines, cut.chars)), tail];
      if (size(parts) <= max) return join(parts);
    }
    const perRole = fewerDiffs(withDiffs, (note, diffs) => [head, note, table, ...diffs, tail], max, seeAll);
    if (perRole !== undefined) return perRole;
  }

  const diffNote =
    withDiffs.length === 0 ? '' : `_${plural(withDiffs.length, 'content diff')} not shown to fit the comment; ${seeAll}._\n`;
  const tableOnly = [head, diffNote, table, tail];
  if (size(tableOnly) <= max) return join(tableOnly);

  // The longest the "more changes" line can be, so the rows that fit leave room for it.
  const omissionFor = (hidden: number): string => `\n… ${plural(hidden, 'more change', 'more changes')} not shown; ${seeAll}.\n`;
  let budget = max - size([head, diffNote, TABLE_HEAD, omissionFor(rows.length), tail]);
  let shown = 0;
  while (shown < rows.length && rows[shown]!.length + 1 <= budget) {
    budget -= rows[shown]!.length;
    shown++;
  }
  const truncated = TABLE_HEAD + rows.slice(0, shown).join('') + omissionFor(rows.length - shown);
  return fitMarkdown([head, diffNote, truncated, tail], max, plan.tenant.name);
}

/**
 * The shortest cut of every diff still too long together: the largest diffs go first, one Role
 * at a time, so most Roles keep theirs (in plan order), and the note at the top says how many are
 * missing. Undefined when not even the smallest diff fits beside the table.
 */
function fewerDiffs(changes: readonly PlanChange[], layout: (note: string, diffs: string[]) => string[], max: number, seeAll: string): string | undefined {
  const cut = DIFF_CUTS[DIFF_CUTS.length - 1]!;
  const diffs = changes.map((c) => diffDetails(c, cut.lines, cut.chars));
  const smallestFirst = diffs.map((text, index) => ({ text, index })).sort((a, b) => a.text.length - b.text.length || a.index - b.index);
  const attempt = (kept: number): string[] => {
    const keep = new Set(smallestFirst.slice(0, kept).map((d) => d.index));
    const dropped = diffs.length - kept;
    const what = dropped === 1 ? 'the largest content diff is' : `the ${thousands(dropped)} largest content diffs are`;
    const note = `_Diffs are cut to ${cut.lines} lines each, and ${what} not shown, to fit the comment; ${seeAll}._\n`;
    return layout(note, diffs.filter((_, i) => keep.has(i)));
  };
  // How many of the smallest diffs fit: fitting is monotone in the count, so a binary search.
  let low = 0;
  let high = diffs.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(attempt(mid)) <= max) low = mid;
    else high = mid - 1;
  }
  return low > 0 ? join(attempt(low)) : undefined;
}

/** The parts joined; if even that is too long (a tiny `maxChars`), cut at a line and say so (the plan of `tenant`, or of the tenants). */
export function fitMarkdown(parts: string[], max: number, tenant?: string): string {
  const text = join(parts);
  if (text.length <= max) return text;
  const notice = `\n… cut to fit the comment; ${fullPlan(tenant)}.\n`;
  const room = Math.max(0, max - notice.length);
  const lastLine = text.lastIndexOf('\n', room);
  return `${text.slice(0, lastLine > 0 ? lastLine : room)}${notice}`.slice(0, max);
}

// Parts are separated by one blank line.
function join(parts: string[]): string {
  return parts.filter((p) => p !== '').map((p) => p.replace(/\n*$/, '\n')).join('\n');
}

function size(parts: string[]): number {
  return join(parts).length;
}
