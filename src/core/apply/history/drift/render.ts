import { escapeControls } from '../../../text/safe-text.js';
import { mdCode, mdText } from '../../../plan/render/markdown-parts.js';
import { plural, quote, shellWord, showName } from '../../../roles/display.js';
import { DRIFT_FOUND, DRIFT_STATUSES, type DriftStatus } from './classify.js';
import { isDriftError, type DriftDocument, type DriftRole, type TenantDrift } from './report.js';

/** How each status reads, and what it means. */
const WORDS: Record<DriftStatus, { label: string; sign: string; meaning: string }> = {
  in_sync: { label: 'in sync', sign: '=', meaning: 'the tenant holds what the files say' },
  pending: { label: 'pending', sign: '>', meaning: 'the files changed since roleflow last applied them; the tenant is as roleflow left it' },
  drifted: { label: 'drifted', sign: '!', meaning: 'changed on the tenant since roleflow last applied it; the files are as applied' },
  conflict: { label: 'conflict', sign: '!', meaning: 'changed on the tenant and in the files since roleflow last applied it' },
  created_outside: { label: 'created outside', sign: '+', meaning: 'on the tenant, never applied by roleflow, and in no role file' },
  deleted_outside: { label: 'deleted outside', sign: '-', meaning: 'roleflow applied it, and the tenant no longer holds it' },
  unclassified: { label: 'unclassified', sign: '?', meaning: 'the files and the tenant differ; the journal has no record to tell why' },
};

export function driftLabel(status: DriftStatus): string {
  return WORDS[status].label;
}

/** The console: a section per tenant (headed when there are several), a line and a remedy per Role not in sync, then a count line. */
export function renderDriftText(doc: DriftDocument): string {
  const several = doc.tenants.length > 1;
  return doc.tenants
    .map((t) => [...(several ? [`=== tenant ${showName(t.tenant)} ===`] : []), ...(isDriftError(t) ? [`Tenant ${quote(t.tenant)} could not be asked: ${escapeControls(t.error.message)}`] : tenantLines(t))].join('\n'))
    .join('\n\n');
}

function tenantLines(t: TenantDrift): string[] {
  const lines: string[] = [];
  const last = t.journal?.last;
  lines.push(
    last === undefined
      ? `Tenant ${quote(t.tenant)}: the journal has no record, so differences cannot be told apart (apply once to start it).`
      : `Tenant ${quote(t.tenant)} against the journal's last record ${showName(last.id)} (${last.time}, ${showName(last.actor)}${last.commit === null ? '' : ` at ${last.commit.slice(0, 7)}`}, ${last.status}).`,
  );
  for (const role of t.roles) {
    if (role.status === 'in_sync') continue;
    const w = WORDS[role.status];
    lines.push(`  ${w.sign} ${w.label.padEnd(15)} ${showName(role.name)}: ${w.meaning}${several(role)}`);
    lines.push(`      ${role.remedy!}`);
  }
  lines.push(summaryLine(t));
  return lines;
}

function several(role: DriftRole): string {
  return (role.ids?.length ?? 0) > 1 ? ` (the tenant holds ${role.ids!.length} Roles of this name)` : '';
}

/** `Drift: 1 drifted, 1 pending, 4 in sync.` — the statuses that occur, and hidden Roles. */
export function summaryLine(t: TenantDrift): string {
  const parts = DRIFT_STATUSES.filter((s) => t.summary[s] > 0).map((s) => `${t.summary[s]} ${WORDS[s].label}`);
  const hidden = t.hidden > 0 ? `; ${plural(t.hidden, 'Role')} hidden by drift.ignore` : '';
  return `Drift: ${parts.length === 0 ? 'no Roles' : parts.join(', ')}${hidden}.`;
}

/** The GitHub issue that reports a tenant's drift: open while anything drifted, closed once nothing has. */
export interface DriftIssue {
  marker: string;
  title: string;
  body: string;
  open: boolean;
}

/** Rows listed in an issue; the rest are counted. */
const MAX_ROWS = 200;

/** `<!-- roleflow:drift:TENANT -->`: one issue per tenant, found again by it. */
export function driftMarker(tenant: string): string {
  return `roleflow:drift:${tenant.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

export function driftIssue(t: TenantDrift, footer = ''): DriftIssue {
  const marker = driftMarker(t.tenant);
  const found = t.roles.filter((r) => DRIFT_FOUND.has(r.status));
  const shown = t.roles.filter((r) => r.status !== 'in_sync');
  const lines = [`<!-- ${marker} -->`, `### roleflow drift — tenant ${mdCode(t.tenant)}`, '', `**${mdText(summaryLine(t))}**`, ''];
  if (found.length === 0) lines.push('Nothing changed on the tenant behind roleflow\'s back: this issue is closed.', '');
  if (shown.length > 0) {
    lines.push('| Role | status | what settles it |', '|---|---|---|');
    for (const r of shown.slice(0, MAX_ROWS)) lines.push(`| ${mdCode(r.name)} | ${WORDS[r.status].label} | ${mdCode(r.remedy!)} |`);
    if (shown.length > MAX_ROWS) lines.push('', `…and ${shown.length - MAX_ROWS} more: \`roleflow drift --tenant ${shellWord(t.tenant)}\` lists them all.`);
    lines.push('');
  }
  lines.push('`drifted`: changed on the tenant since roleflow applied it. `pending`: merged, not applied yet. `roleflow apply` reverts a drift; `roleflow pull --target NAME` adopts a hand edit into the files for a pull request.');
  if (footer !== '') lines.push('', footer);
  return { marker, title: `roleflow drift: tenant ${escapeControls(t.tenant)}`, body: `${lines.join('\n')}\n`, open: found.length > 0 };
}
