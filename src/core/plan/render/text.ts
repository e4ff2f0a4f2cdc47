import { formatIssue } from '../../errors.js';
import { plural, printableLine, quote, showName, thousands } from '../../roles/display.js';
import type { Plan, PlanChange, PlanRoleState } from '../types.js';

/** Long lists (unmanaged Roles, notes) stop here in the console; `--json` has them all. */
const MAX_LISTED = 50;

const ANSI = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
type Paint = (style: keyof typeof ANSI, text: string) => string;

/** The plan for a terminal, Terraform-like; ANSI colours only when `color`. */
export function renderPlanText(plan: Plan, opts: { color: boolean; rolesDir?: string }): string {
  const paint: Paint = (style, text) => (opts.color ? `\x1b[${ANSI[style]}m${text}\x1b[0m` : text);
  const out: string[] = [`Tenant ${showName(plan.tenant.name)} (${showName(plan.tenant.base_url)})`, ''];

  for (const change of plan.changes) out.push(...changeLines(change, paint), '');

  if (plan.unmanaged.length > 0) {
    out.push(
      `Unmanaged: ${plural(plan.unmanaged.length, 'Role')} on the tenant without a role file (left alone; --prune deletes such Roles):`,
      ...capped(plan.unmanaged.map((r) => `  ${showName(r.name)} (id ${showName(r.id)})`)),
      '',
    );
  }
  section(out, 'Notes:', plan.notes.map((n) => `  - ${n}`));
  section(out, paint('red', 'Refused by guards (nothing will be applied):'), plan.guards.map((g) => `  ${paint('red', `✗ ${g.message}`)}`));
  section(out, paint('red', 'Problems in the role files:'), plan.issues.map((i) => `  ${formatIssue(i)}`), Infinity);

  out.push(planSummaryLine(plan, opts.rolesDir));
  return `${out.join('\n')}\n`;
}

/** `Plan: N to create, N to update, N to delete.`, the no-change sentence, or why nothing was planned. */
export function planSummaryLine(plan: Plan, rolesDir = 'roles/'): string {
  const { create, update, delete: del } = plan.summary;
  if (plan.issues.length > 0 && plan.changes.length === 0) return 'Nothing was planned: the role files have problems.';
  if (plan.changes.length === 0) return `No changes. The tenant matches ${rolesDir}.`;
  return `Plan: ${create} to create, ${update} to update, ${del} to delete.`;
}

function changeLines(change: PlanChange, paint: Paint): string[] {
  const where = [change.file === undefined ? undefined : showName(change.file), change.id === undefined ? undefined : `id ${showName(change.id)}`]
    .filter((w) => w !== undefined)
    .join(', ');
  const head = `${showName(change.name)} (${where})`;
  switch (change.action) {
    case 'create':
      return [paint('green', `  + create ${head}`), ...stateLines(change.after)];
    case 'delete':
      return [paint('red', `  - delete ${head}`), ...stateLines(change.before)];
    case 'update': {
      const lines = [paint('yellow', `  ~ update ${head}`)];
      for (const field of change.fields ?? []) {
        if (field === 'content') continue;
        lines.push(`      ${field}: ${quote(change.before[field])} → ${quote(change.after[field])}`);
      }
      if (change.diff !== undefined) {
        lines.push('      content:', ...diffLines(change.diff).map((l, i) => `        ${paintDiffLine(l, i, paint)}`));
      }
      return lines;
    }
  }
}

function stateLines(state: PlanRoleState): string[] {
  return [`      description: ${quote(state.description)}`, `      content: ${plural(lineCount(state.content), 'line')}`];
}

/** The diff's lines, each made printable. */
export function diffLines(diff: string): string[] {
  return diff.replace(/\n$/, '').split('\n').map(printableLine);
}

function paintDiffLine(line: string, index: number, paint: Paint): string {
  if (index < 2) return paint('bold', line);
  if (line.startsWith('@@')) return paint('cyan', line);
  if (line.startsWith('+')) return paint('green', line);
  if (line.startsWith('-')) return paint('red', line);
  return line;
}

function section(out: string[], title: string, lines: string[], max = MAX_LISTED): void {
  if (lines.length > 0) out.push(title, ...capped(lines, max), '');
}

function capped(lines: string[], max = MAX_LISTED): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), `  … and ${thousands(lines.length - max)} more (see plan --json)`];
}

/** Lines of a text as `split('\n')` counts them (none for ''), without building the lines. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}
