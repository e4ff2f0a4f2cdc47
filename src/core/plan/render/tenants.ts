import { showName, thousands } from '../../roles/display.js';
import { mdCode, mdText } from './markdown-parts.js';
import { fitMarkdown, GITHUB_COMMENT_LIMIT, renderPlanMarkdown } from './markdown.js';
import { planSummaryLine, renderPlanText } from './text.js';
import { escapeControls } from '../../text/safe-text.js';
import { isTenantPlanError, type Plan, type TenantPlanEntry, type TenantPlanError } from '../types.js';

/**
 * Rendering a run over several tenants (`plan --all-tenants`, `--tenant` more than once): the plan
 * of each tenant as `plan` shows one, in a section of its own, and what they add up to. The JSON
 * document is `renderTenantPlansJson` (render-json.ts).
 */

/**
 * Each tenant's plan under a heading line naming it (a tenant that could not be planned: why),
 * then one summary line per tenant.
 */
export function renderTenantPlansText(plans: readonly TenantPlanEntry[], opts: { color: boolean; rolesDir?: string }): string {
  const sections = plans.map((plan) => `=== tenant ${showName(plan.tenant.name)} ===\n${isTenantPlanError(plan) ? `${notPlanned(plan)}\n` : renderPlanText(plan, opts)}`);
  const width = Math.max(...plans.map((p) => showName(p.tenant.name).length));
  const lines = plans.map((p) => `  ${showName(p.tenant.name).padEnd(width)}  ${tenantVerdict(p, opts.rolesDir)}`);
  return `${sections.join('\n')}\n${thousands(plans.length)} ${plans.length === 1 ? 'tenant' : 'tenants'}:\n${lines.join('\n')}\n`;
}

function notPlanned(entry: TenantPlanError): string {
  return `Not planned: ${escapeControls(entry.error.message)}`;
}

/** One tenant's line in the summary: its plan line, that guards refuse it, or why it was not planned. */
function tenantVerdict(plan: TenantPlanEntry, rolesDir: string | undefined): string {
  if (isTenantPlanError(plan)) return notPlanned(plan);
  const line = planSummaryLine(plan, rolesDir);
  return plan.guards.length === 0 ? line : `${line} Refused by ${plan.guards.length === 1 ? 'a guard' : `${plan.guards.length} guards`}.`;
}

/** Below this, a tenant's section is only its heading and summary: not worth showing cut further. */
const MIN_SECTION = 400;

/**
 * One pull-request comment for every tenant, within `maxChars` (GitHub's limit by default): a
 * summary table (tenant, create, update, delete, guards), then each tenant's plan as
 * `renderPlanMarkdown` shows it. The room left after the table is shared: each section gets what
 * it needs if that is less than an equal share, and what the small ones leave goes to the large
 * ones, so only the largest plans are shortened (each saying what was cut).
 */
export function renderTenantPlansMarkdown(plans: readonly TenantPlanEntry[], opts: { maxChars?: number; marker?: string } = {}): string {
  const max = opts.maxChars ?? GITHUB_COMMENT_LIMIT;
  const head = summaryMarkdown(plans, opts.marker);
  // The head, a blank line, and the sections one blank line apart (each ends with a line break).
  const room = max - head.length - plans.length;
  if (room < plans.length * MIN_SECTION) {
    return fitMarkdown([head, `_The plan of each tenant is not shown to fit the comment; run \`roleflow plan --tenant NAME\` for one._\n`], max);
  }
  const section = (plan: TenantPlanEntry, maxChars: number) => (isTenantPlanError(plan) ? notPlannedMarkdown(plan) : renderPlanMarkdown(plan, { maxChars }));
  const budgets = shareRoom(plans.map((p) => section(p, Infinity).length), room);
  const sections = plans.map((plan, i) => section(plan, budgets[i]!));
  return `${head}\n${sections.join('\n')}`;
}

/** `room` split among needs: whoever needs less than an equal share of what is left gets it all. */
export function shareRoom(needs: readonly number[], room: number): number[] {
  const budgets = new Array<number>(needs.length).fill(0);
  const order = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need || a.index - b.index);
  let left = room;
  order.forEach(({ need, index }, i) => {
    const share = Math.floor(left / (order.length - i));
    budgets[index] = Math.min(need, share);
    left -= budgets[index]!;
  });
  return budgets;
}

/** A tenant that could not be planned, as its section of the comment (short: it needs no cut). */
function notPlannedMarkdown(entry: TenantPlanError): string {
  return `### roleflow plan for ${mdCode(entry.tenant.name)}\n\n> [!CAUTION]\n> Not planned: ${mdText(entry.error.message)}\n`;
}

function summaryMarkdown(entries: readonly TenantPlanEntry[], marker: string | undefined): string {
  const lines: string[] = [];
  if (marker !== undefined) lines.push(`<!-- ${marker.replace(/-->/g, '')} -->`);
  const plans = entries.filter((p): p is Plan => !isTenantPlanError(p));
  const changed = plans.filter((p) => p.changes.length > 0).length;
  const refused = plans.filter((p) => p.guards.length > 0).length;
  const failed = entries.length - plans.length;
  lines.push(`## roleflow plan for ${thousands(entries.length)} ${entries.length === 1 ? 'tenant' : 'tenants'}`, '');
  const counts = [`${thousands(changed)} with changes`, ...(refused > 0 ? [`${thousands(refused)} refused by guards`] : []), ...(failed > 0 ? [`${thousands(failed)} not planned`] : [])];
  lines.push(`**${counts.join(', ')}.**`, '');
  lines.push('| Tenant | Create | Update | Delete | Guards |', '|---|---:|---:|---:|---|');
  for (const plan of entries) {
    if (isTenantPlanError(plan)) {
      lines.push(`| ${mdCode(plan.tenant.name)} | – | – | – | ⚠️ not planned: ${mdText(plan.error.message)} |`);
      continue;
    }
    const { create, update, delete: del } = plan.summary;
    const guards = plan.guards.length === 0 ? (plan.issues.length > 0 ? 'problems in the role files' : 'none') : `⛔ ${thousands(plan.guards.length)} refused`;
    lines.push(`| ${mdCode(plan.tenant.name)} | ${thousands(create)} | ${thousands(update)} | ${thousands(del)} | ${guards} |`);
  }
  return `${lines.join('\n')}\n`;
}
