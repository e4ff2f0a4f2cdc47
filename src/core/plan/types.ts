import type { Issue } from '../errors.js';

/**
 * A plan is data: JSON as `plan --out` saves it and `apply PLANFILE` reads it back
 * (`schemas/plan.schema.json`). Keys are snake_case because the file is the interface.
 */
export const PLAN_FORMAT_VERSION = 1;

export type ChangeAction = 'create' | 'update' | 'delete';
export type ChangedField = 'name' | 'description' | 'content';

/** A Role's three fields as they were (`before`) or will be (`after`). */
export interface PlanRoleState {
  name: string;
  description: string;
  content: string;
}

/** What every change has; `remote_hash` is the remote state it was planned against (`hash.ts`). */
interface ChangeBase {
  /** The name after the change (create, update) or the name being deleted. */
  name: string;
  /**
   * The remote state this change was planned against (see `hash.ts`): the Role's fields for an
   * update or delete, the Roles holding the name for a create. A saved plan is stale when it differs.
   */
  remote_hash: string;
}

export interface CreateChange extends ChangeBase {
  action: 'create';
  /** The role file that asks for it. */
  file: string;
  after: PlanRoleState;
  id?: never;
  before?: never;
  fields?: never;
  diff?: never;
  name_hash?: never;
}

export interface UpdateChange extends ChangeBase {
  action: 'update';
  /** The remote Role's id. */
  id: string;
  file: string;
  before: PlanRoleState;
  after: PlanRoleState;
  /** Fields the update changes, in the order name, description, content. */
  fields: ChangedField[];
  /** Unified diff of the content, when the update changes it. */
  diff?: string;
  /** A rename (the name changes): the Roles holding the new name, as `remote_hash` is for a create. */
  name_hash?: string;
}

export interface DeleteChange extends ChangeBase {
  action: 'delete';
  id: string;
  before: PlanRoleState;
  file?: never;
  after?: never;
  fields?: never;
  diff?: never;
  name_hash?: never;
}

/**
 * One planned change, by action (the `?: never` members let code that handles every action read
 * `change.id` or `change.file` as possibly absent, while a narrowed change has them for sure): the JSON a saved plan holds (`schemas/plan.schema.json` requires
 * the same fields per action, so a plan read back from a file has this shape).
 */
export type PlanChange = CreateChange | UpdateChange | DeleteChange;

export interface PlanGuard {
  /** `policy`: a plan policy finding of level hard, or error without an `--allow`. */
  kind: 'protected' | 'max_deletes' | 'empty_prune' | 'policy';
  message: string;
  /** The protected Role's name. */
  name?: string;
}

/** A finding of plan policy (`policy.plan`, `src/core/policy`), as the plan records it. */
export interface PlanFinding {
  rule: string;
  /** warn: shown; error: refuses unless an `--allow` overrides it; hard: always refuses. */
  level: 'warn' | 'error' | 'hard';
  message: string;
  tenant: string;
  /** The Role the finding is about; absent for a rule over the whole plan (`max_changes`). */
  role?: string;
  /** Its role file, when it has one. */
  file?: string;
  /** `sha256:` of the rule, the Role and the content it was found in: what an `--allow` is bound to. */
  fingerprint: string;
  /** An `--allow` overrides it (an error finding only, never a hard one). */
  allowed?: true;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  unmanaged: number;
}

export interface Plan {
  format_version: typeof PLAN_FORMAT_VERSION;
  /** `base_url` without credentials or query values. */
  tenant: { name: string; base_url: string };
  created_at?: string;
  /** `allow_empty_prune`: made with `--allow-empty-prune` (or the config's consent). */
  options: { prune: boolean; protect: string[]; ignore: string[]; max_deletes?: number; allow_empty_prune?: boolean; targets?: string[] };
  summary: PlanSummary;
  /** In the order `apply` runs them (see `computePlan`). */
  changes: PlanChange[];
  /** Remote Roles no file manages, left alone because prune is off. */
  unmanaged: { id: string; name: string }[];
  notes: string[];
  /** Any guard refuses the whole plan (exit 4). */
  guards: PlanGuard[];
  /** Problems in the role files found while matching (exit 1, nothing sent). */
  issues: Issue[];
  /** The findings of `policy.plan` (the refusing ones are also guards); absent without plan rules. */
  policy?: PlanFinding[];
  /** A plan made by `rollback`: the journal record id or the commit it goes back to (journalled as such by `apply`). */
  rollback_of?: string;
  /**
   * `sha256:` of the rest of the plan as `renderPlanJson` writes it (see `planDigest`): written
   * with every JSON plan, checked by `apply PLANFILE`, so an altered saved plan is refused.
   */
  digest?: string;
}

/** What `computePlan` needs besides the files and the remote Roles. */
export interface PlanOptions {
  prune: boolean;
  /** Globs over Role names: such Roles are never updated or deleted. */
  protect: string[];
  /** Globs over Role names: such Roles and files are left out entirely. */
  ignore: string[];
  /** More planned deletes than this is refused. */
  maxDeletes?: number;
  /**
   * Prune with no role files at all deletes every Role: refused unless this says it is meant
   * (an empty or mistyped roles folder must not empty the tenant).
   */
  allowEmptyPrune?: boolean;
  tenant: { name: string; baseUrl: string };
  /**
   * Names or globs (`--target`, and the names in the role files given as arguments): only the
   * Roles they match, by their name in a file or on the tenant, are planned — a partial plan,
   * which prunes nothing else. Undefined: every Role.
   */
  targets?: string[];
  /** ISO timestamp recorded in the plan; the caller owns the clock. */
  createdAt?: string;
  /**
   * The files are some of a set that `checkRoleSet` found no problem in (`loadRoleFiles` checks
   * every file it reads): names and ids are unique among them too, so the plan does not check again.
   */
  roleSetChecked?: boolean;
}

/**
 * A tenant of a run over several that could not be planned (unreachable, refusing the token, a
 * failing answer): shown in its place, so the other tenants' plans still are. Never saved.
 */
export interface TenantPlanError {
  tenant: { name: string; base_url: string };
  /** `code` as errors carry it (`unreachable`, `unauthorized`, …); `message` without the tenant's name. */
  error: { code: string; message: string };
}

/** One tenant's entry in a run over several: its plan, or why there is none. */
export type TenantPlanEntry = Plan | TenantPlanError;

export function isTenantPlanError(entry: TenantPlanEntry): entry is TenantPlanError {
  return 'error' in entry;
}
