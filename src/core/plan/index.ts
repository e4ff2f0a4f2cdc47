/**
 * Planning, the pure core (PRODUCT.md "Plan semantics", "Apply semantics" for saved plans): role
 * files and the tenant's Roles in, a `Plan` (JSON data) out, and its renderings. No file system,
 * no network.
 *
 * Planning
 * - `computePlan(files, remoteRoles, options): Plan` — `Plan` is JSON data (plan-types.ts,
 *   `schemas/plan.schema.json`). `plan.issues` non-empty → exit 1; `plan.guards` non-empty → exit 4.
 * - `checkPlanFresh(plan, remoteRoles, tenant?)` — for `apply PLANFILE`: stale → exit 4.
 * - `savedPlanRefusals(plan, todaysGuards)` — for `apply PLANFILE`, before reading the tenant:
 *   an altered plan (its `digest`, see `planDigest`) or one today's guards refuse → exit 4.
 * - `planHasChanges(plan)` — for `--detailed-exitcode`.
 * - `compileGlob(glob)`, `globMatcher(globs)` — the name globs of `protect` / `ignore`.
 * - `rolesDigest(roles, ignore)` — the Roles as the plan compares them, one digest (the promotion gate).
 *
 * Rendering
 * - `renderPlanText(plan, {color, rolesDir?})`, `renderPlanJson(plan)`,
 *   `renderPlanMarkdown(plan, {maxChars?, marker?})` (≤ maxChars, default 65,536).
 * - Several tenants: `renderTenantPlansText`, `renderTenantPlansMarkdown` (one comment, the room
 *   shared among the tenants), `renderTenantPlansJson` (`{format_version, tenants, digest}`).
 */
export { computePlan, unreadablePlan } from './compute-plan.js';
export { globMatcher, indexRoles, matchRoles, type Matching } from './matching.js';
export { compileGlob } from '../text/glob.js';
export { checkPlanFresh, planHasChanges, type Freshness } from './fresh.js';
export { nameStateHash, roleStateHash } from './hash.js';
export { rolesDigest } from './roles-digest.js';
export { planBaseUrl } from '../text/printed-url.js';
export { contentDiff } from './content-diff.js';
export {
  PLAN_FORMAT_VERSION,
  type ChangeAction,
  type ChangedField,
  type CreateChange,
  type DeleteChange,
  type Plan,
  type PlanChange,
  type PlanGuard,
  type PlanOptions,
  type PlanRoleState,
  type PlanSummary,
  type UpdateChange,
  type TenantPlanEntry,
  type TenantPlanError,
  isTenantPlanError,
} from './types.js';
export { planSummaryLine, renderPlanText } from './render/text.js';
export { planDigest, planJsonBytes, renderPlanJson, renderTenantPlansJson, tenantPlansDigest, type TenantPlans } from './render-json.js';
export { planGuards, type GuardOptions } from './guards.js';
export { savedPlanRefusals } from './saved.js';
export { compare } from './notes.js';
export { GITHUB_COMMENT_LIMIT, renderPlanMarkdown } from './render/markdown.js';
export { renderTenantPlansMarkdown, renderTenantPlansText, shareRoom } from './render/tenants.js';
