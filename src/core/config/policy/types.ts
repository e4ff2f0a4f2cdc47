import type { UserRegex } from '../../text/linear-regex.js';
/**
 * Lint and plan policy as data (PRODUCT.md "Lint and policy"): the rules of the config's
 * `policy:`, and the findings they make. Keys of findings are snake_case where they are written
 * to files (`schemas/lint.schema.json`, `schemas/plan.schema.json`).
 */

/** As Sentinel's: `warn` is shown, `error` refuses unless overridden (`--allow`), `hard` always refuses. */
export const LEVELS = ['warn', 'error', 'hard'] as const;
export type Level = (typeof LEVELS)[number];

/** One finding of `roleflow lint` (or a plugin), at its file:line:column. */
export interface Finding {
  rule: string;
  level: Level;
  file: string;
  line: number;
  column: number;
  message: string;
}

export const ROLE_RULES = ['max_chars', 'forbid', 'must_include', 'name', 'description', 'secrets'] as const;
export type RoleRule = (typeof ROLE_RULES)[number];
export const FLOW_RULES = ['require_assertions', 'max_repeat'] as const;
export type FlowRule = (typeof FLOW_RULES)[number];

export interface RolePolicy {
  maxChars?: number;
  /** Phrases, or `/regex/flags`, compiled (`compilePolicyPattern`). */
  forbid: PolicyPattern[];
  mustInclude: PolicyPattern[];
  /** The name's pattern, as written and compiled. */
  name?: PolicyPattern;
  descriptionRequired: boolean;
  /** Default level of the rules above (`secrets` is always an error). */
  level: Level;
  /** A level per rule, over `level`. */
  levels: Partial<Record<RoleRule, Level>>;
}

export interface FlowPolicy {
  requireAssertions: boolean;
  maxRepeat?: number;
  level: Level;
  levels: Partial<Record<FlowRule, Level>>;
}

export type PlanRuleKind = 'create' | 'update' | 'delete' | 'max_changes' | 'max_changed_lines_pct';

/** One rule of `policy.plan`; `name` is what `--allow` names (default: its kind). */
export interface PlanRule {
  name: string;
  kind: PlanRuleKind;
  /** Tenant globs it applies to; absent: every tenant. */
  tenants?: string[];
  /** `max_changes` / `max_changed_lines_pct`: the limit. */
  limit?: number;
  level: Level;
}

export interface Policy {
  roles: RolePolicy;
  flows: FlowPolicy;
  plan: PlanRule[];
  /** GitHub logins whose approving review makes an `--allow` count in the Action. */
  approvers: string[];
  /** Module paths relative to the config's folder. */
  plugins: string[];
}

/** A phrase or a regular expression, as written and ready to search with. */
export interface PolicyPattern {
  source: string;
  /** Run in the linear-time engine (a phrase: found as written). */
  regex: UserRegex;
  /** Written as `/…/flags`. */
  isRegex: boolean;
}

/** A finding of plan policy, as the plan records it (`policy[]` of `schemas/plan.schema.json`). */
export type { PlanFinding } from '../../plan/types.js';

export function emptyPolicy(): Policy {
  return {
    roles: { forbid: [], mustInclude: [], descriptionRequired: false, level: 'error', levels: {} },
    flows: { requireAssertions: false, level: 'error', levels: {} },
    plan: [],
    approvers: [],
    plugins: [],
  };
}

/** Whether findings at this level fail `lint` (exit 1) and refuse `apply` (exit 4). */
export function blocks(level: Level): boolean {
  return level !== 'warn';
}
