import { compilePolicyPattern, compileWholePattern } from './pattern.js';
import { emptyPolicy, type FlowRule, type Level, type PlanRule, type PlanRuleKind, type Policy, type PolicyPattern, type RoleRule } from './types.js';

/** `policy:` as written in the config (already checked against `schemas/config.schema.json`). */
export interface RawPolicy {
  roles?: {
    max_chars?: number;
    forbid?: string[];
    must_include?: string[];
    name?: string;
    description?: 'required' | 'optional';
    level?: Level;
    levels?: Partial<Record<RoleRule, Level>>;
  };
  flows?: { require_assertions?: boolean; max_repeat?: number; level?: Level; levels?: Partial<Record<FlowRule, Level>> };
  plan?: RawPlanRule[];
  approvers?: string[];
  plugins?: string[];
}

interface RawPlanRule {
  name?: string;
  tenants?: string[];
  action?: 'create' | 'update' | 'delete';
  max_changes?: number;
  max_changed_lines_pct?: number;
  level?: Level;
}

/** A problem at a JSON pointer of the config, which the config loader locates. */
export interface PointedIssue {
  pointer: string;
  message: string;
}

/**
 * The policy of the config, its patterns compiled; an invalid regex, or a plan rule that is not
 * exactly one kind, is a problem at its pointer.
 */
export function parsePolicy(raw: RawPolicy | undefined): { policy: Policy; issues: PointedIssue[] } {
  const policy = emptyPolicy();
  const issues: PointedIssue[] = [];
  if (raw === undefined) return { policy, issues };
  const compile = (source: string, pointer: string, whole = false): PolicyPattern | undefined => {
    try {
      return whole ? compileWholePattern(source) : compilePolicyPattern(source);
    } catch (error) {
      issues.push({ pointer, message: `policy: invalid regular expression ${JSON.stringify(source)}: ${(error as Error).message.split('\n')[0]}` });
      return undefined;
    }
  };
  const roles = raw.roles ?? {};
  const patterns = (list: string[] | undefined, at: string) => (list ?? []).flatMap((s, i) => compile(s, `${at}/${i}`) ?? []);
  policy.roles = {
    ...(roles.max_chars === undefined ? {} : { maxChars: roles.max_chars }),
    forbid: patterns(roles.forbid, '/policy/roles/forbid'),
    mustInclude: patterns(roles.must_include, '/policy/roles/must_include'),
    descriptionRequired: roles.description === 'required',
    level: roles.level ?? 'error',
    levels: roles.levels ?? {},
  };
  if (roles.name !== undefined) {
    const name = compile(roles.name, '/policy/roles/name', true);
    if (name) policy.roles.name = name;
  }
  const flows = raw.flows ?? {};
  policy.flows = {
    requireAssertions: flows.require_assertions === true,
    ...(flows.max_repeat === undefined ? {} : { maxRepeat: flows.max_repeat }),
    level: flows.level ?? 'error',
    levels: flows.levels ?? {},
  };
  (raw.plan ?? []).forEach((rule, i) => {
    const kinds: [PlanRuleKind, number | undefined][] = [];
    if (rule.action !== undefined) kinds.push([rule.action, undefined]);
    if (rule.max_changes !== undefined) kinds.push(['max_changes', rule.max_changes]);
    if (rule.max_changed_lines_pct !== undefined) kinds.push(['max_changed_lines_pct', rule.max_changed_lines_pct]);
    if (kinds.length !== 1) {
      issues.push({ pointer: `/policy/plan/${i}`, message: `policy.plan[${i}]: give exactly one of action, max_changes, max_changed_lines_pct${kinds.length > 1 ? ` (got ${kinds.map((k) => k[0]).join(', ')})` : ''}` });
      return;
    }
    const [kind, limit] = kinds[0]!;
    const parsed: PlanRule = { name: rule.name ?? kind, kind, level: rule.level ?? 'error' };
    if (rule.tenants !== undefined) parsed.tenants = rule.tenants;
    if (limit !== undefined) parsed.limit = limit;
    policy.plan.push(parsed);
  });
  policy.approvers = raw.approvers ?? [];
  policy.plugins = raw.plugins ?? [];
  return { policy, issues };
}
