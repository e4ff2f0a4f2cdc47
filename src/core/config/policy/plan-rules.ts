import { matchesGlob } from '../../text/glob.js';
import { sha256 } from '../../plan/hash.js';
import type { Plan, PlanChange, PlanGuard } from '../../plan/types.js';
import { quote } from '../../roles/display.js';
import type { PlanFinding, PlanRule } from './types.js';

/**
 * Plan policy (`policy.plan`), pure: the findings of `rules` over one tenant's plan. An action
 * rule finds each change of that action; `max_changes` the plan as a whole when it holds more
 * changes; `max_changed_lines_pct` each update whose content changes more of its lines than that
 * (the larger of the lines added and removed, against the lines it had). A rule with `tenants`
 * applies only on tenants matching one of its globs.
 */
export function planFindings(plan: Pick<Plan, 'tenant' | 'changes'>, rules: readonly PlanRule[]): PlanFinding[] {
  const tenant = plan.tenant.name;
  const findings: PlanFinding[] = [];
  for (const rule of rules) {
    if (rule.tenants && !rule.tenants.some((glob) => matchesGlob(tenant, glob))) continue;
    const on = (change: PlanChange, message: string): void => {
      findings.push(finding(rule, tenant, message, change.name, change.file, changeDigest(change)));
    };
    if (rule.kind === 'max_changes') {
      if (plan.changes.length > rule.limit!) {
        const digest = sha256(JSON.stringify(plan.changes.map(changeDigest)));
        findings.push(finding(rule, tenant, `${plan.changes.length} changes planned on tenant ${quote(tenant)}, more than max_changes ${rule.limit}`, undefined, undefined, digest));
      }
    } else if (rule.kind === 'max_changed_lines_pct') {
      for (const change of plan.changes) {
        const pct = change.action === 'update' ? changedLinesPct(change.before.content, change.diff) : undefined;
        if (pct !== undefined && pct > rule.limit!) on(change, `update of Role ${quote(change.name)} on tenant ${quote(tenant)} changes ${Math.round(pct)}% of its lines, more than max_changed_lines_pct ${rule.limit}`);
      }
    } else {
      for (const change of plan.changes) {
        if (change.action === rule.kind) on(change, `${change.action} of Role ${quote(change.name)} on tenant ${quote(tenant)} (policy.plan: ${change.action} on ${rule.tenants ? rule.tenants.join(', ') : 'every tenant'} is ${rule.level})`);
      }
    }
  }
  return findings;
}

function finding(rule: PlanRule, tenant: string, message: string, role: string | undefined, file: string | undefined, content: string): PlanFinding {
  const found: PlanFinding = { rule: rule.name, level: rule.level, message, tenant, fingerprint: fingerprintOf(rule.name, role, content) };
  if (role !== undefined) found.role = role;
  if (file !== undefined) found.file = file;
  return found;
}

/** What an override is bound to: the rule, the Role and the content the finding was made of. */
export function fingerprintOf(rule: string, role: string | undefined, contentDigest: string): string {
  return sha256(JSON.stringify(['policy', rule, role ?? null, contentDigest]));
}

/** The change as planned: its action and both states, so any edit to the Role gives another digest. */
function changeDigest(change: PlanChange): string {
  return sha256(JSON.stringify([change.action, change.name, change.before ?? null, change.after ?? null]));
}

/** The changed share of an update's lines, in percent; undefined when its content does not change. */
export function changedLinesPct(before: string, diff: string | undefined): number | undefined {
  if (diff === undefined) return undefined;
  const lines = diff.split('\n');
  if (lines.some((l) => l.startsWith('@@ content changed too much'))) return 100;
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  const had = before.split('\n').length;
  return (Math.max(added, removed) / had) * 100;
}

/** `--allow RULE[:ROLE][@FINGERPRINT]`, parsed. */
export interface Allow {
  text: string;
  rule: string;
  role?: string;
  /** Hex digits the finding's fingerprint starts with (after `sha256:`). */
  fingerprint?: string;
}

export function parseAllow(text: string): Allow | string {
  const at = /^(.*)@([0-9a-f]{6,64})$/.exec(text);
  const body = at ? at[1]! : text;
  const colon = body.indexOf(':');
  const rule = colon === -1 ? body : body.slice(0, colon);
  const role = colon === -1 ? undefined : body.slice(colon + 1);
  if (rule === '' || role === '') return `--allow ${text}: write RULE, RULE:ROLE or RULE:ROLE@FINGERPRINT (a rule of policy.plan, a Role name, the fingerprint a plan shows)`;
  return { text, rule, ...(role === undefined ? {} : { role }), ...(at ? { fingerprint: at[2]! } : {}) };
}

/** The short form of a fingerprint that plans show and `--allow …@FP` takes. */
export function shortFingerprint(fingerprint: string): string {
  return fingerprint.replace(/^sha256:/, '').slice(0, 12);
}

/**
 * Overrides applied: an `error` finding that an `--allow` names (its rule, its Role when given,
 * its fingerprint when given) is allowed; so is one whose fingerprint a saved plan recorded as
 * allowed (`recorded`). A `hard` finding never is. `notes` say what each `--allow` did not do:
 * name a hard finding, or lapse (the content changed since the fingerprint it names).
 */
export function applyAllows(findings: readonly PlanFinding[], allows: readonly Allow[], recorded: ReadonlySet<string> = new Set()): { findings: PlanFinding[]; notes: string[] } {
  const used = new Set<Allow>();
  const notes: string[] = [];
  const out = findings.map((f) => {
    const named = allows.filter((a) => a.rule === f.rule && (a.role === undefined || a.role === f.role));
    if (f.level === 'hard') {
      for (const a of named) notes.push(`--allow ${a.text}: ${describe(f)} is hard: no --allow overrides it`), used.add(a);
      return f;
    }
    if (f.level !== 'error') return f;
    const bound = named.filter((a) => a.fingerprint === undefined || shortOf(f).startsWith(a.fingerprint));
    for (const a of named) used.add(a);
    for (const a of named) if (!bound.includes(a)) notes.push(`--allow ${a.text} lapsed: ${describe(f)} is now fingerprint ${shortOf(f)}: the content changed since it was allowed`);
    return bound.length > 0 || recorded.has(f.fingerprint) ? { ...f, allowed: true as const } : f;
  });
  for (const a of allows) if (!used.has(a)) notes.push(`--allow ${a.text} matches no finding of this plan`);
  return { findings: out, notes };
}

function shortOf(f: PlanFinding): string {
  return f.fingerprint.replace(/^sha256:/, '');
}

function describe(f: PlanFinding): string {
  return `${f.rule}${f.role === undefined ? '' : `:${f.role}`}`;
}

/** The findings that refuse the plan (exit 4): hard ones, and error ones not allowed. */
export function refusingFindings(findings: readonly PlanFinding[]): PlanFinding[] {
  return findings.filter((f) => f.level === 'hard' || (f.level === 'error' && f.allowed !== true));
}

/** A refusing finding as a guard of the plan, with the override to use when there is one. */
export function findingGuard(f: PlanFinding): PlanGuard {
  const how = f.level === 'hard' ? ' (hard: no override)' : ` (override: --allow ${describe(f)}@${shortFingerprint(f.fingerprint)})`;
  return { kind: 'policy', message: `policy ${f.rule}: ${f.message}${how}`, ...(f.role === undefined ? {} : { name: f.role }) };
}

/**
 * `plan` with its policy: `policy[]` holds every finding (overrides applied), and each refusing
 * one is a guard (exit 4, nothing sent). No rules: the plan is left as it is. Returns the
 * overrides' notes. `recorded`: fingerprints a saved plan recorded as allowed; `more`: plugins' findings.
 */
export function withPlanPolicy(plan: Plan, rules: readonly PlanRule[], allows: readonly Allow[], recorded?: ReadonlySet<string>, more: readonly PlanFinding[] = []): string[] {
  if (rules.length === 0 && allows.length === 0 && more.length === 0) return [];
  const { findings, notes } = applyAllows([...planFindings(plan, rules), ...more], allows, recorded);
  plan.policy = findings;
  plan.guards.push(...refusingFindings(findings).map(findingGuard));
  return notes;
}

/** The fingerprints a saved plan records as allowed. */
export function recordedAllows(plan: Pick<Plan, 'policy'>): Set<string> {
  return new Set((plan.policy ?? []).filter((f) => f.allowed === true).map((f) => f.fingerprint));
}
