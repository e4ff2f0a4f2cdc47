/**
 * Roles as code, the pure core (PRODUCT.md "Role files", "Plan semantics"). No file system, no
 * network: the commands read files and the tenant, then call these.
 *
 * Reading role files
 * - `decodeRoleFile(bytes, file): Result<string>` — bytes → text; refuses files over
 *   `MAX_ROLE_FILE_BYTES`, invalid UTF-8 and NUL bytes ("binary file").
 * - `parseRoleFile(text, file, schema): Result<RoleFile>` — front-matter + content; `schema` is
 *   `loadSchema('role')`. Every problem of the file as `Issue`s (file:line:col), at most
 *   `MAX_ISSUES_PER_FILE` plus one line counting the rest.
 * - `checkRoleSet(files): Issue[]` — a name or id used by several files: one issue naming all
 *   (files may share a name when each of them pins a distinct `id`).
 *
 * Writing role files (`pull`)
 * - `serializeRoleFile({name, description, id?, content}): string` — round-trips through
 *   `parseRoleFile` exactly.
 * - `roleFileName(name, taken): string` — a safe, lower-case `*.md` name; `taken` holds
 *   `fileNameKey(...)` of names in use, and the caller adds each result to it.
 *
 * Planning
 * - `computePlan(files, remoteRoles, options): Plan` — `Plan` is JSON data (plan-types.ts,
 *   `schemas/plan.schema.json`). `plan.issues` non-empty → exit 1; `plan.guards` non-empty → exit 4.
 * - `checkPlanFresh(plan, remoteRoles, tenant?)` — for `apply PLANFILE`: stale → exit 4.
 * - `savedPlanRefusals(plan, todaysGuards)` — for `apply PLANFILE`, before reading the tenant:
 *   an altered plan (its `digest`, see `planDigest`) or one today's guards refuse → exit 4.
 * - `planHasChanges(plan)` — for `--detailed-exitcode`.
 * - `globToRegExp(glob)`, `globMatcher(globs)` — the name globs of `protect` / `ignore`.
 *
 * Rendering
 * - `renderPlanText(plan, {color, rolesDir?})`, `renderPlanJson(plan)`,
 *   `renderPlanMarkdown(plan, {maxChars?, marker?})` (≤ maxChars, default 65,536).
 */
export { decodeRoleFile, MAX_ISSUES_PER_FILE, MAX_ROLE_FILE_BYTES, parseRoleFile, type Position, type RoleFile } from './role-file.js';
export { splitFrontMatter, withoutFinalLineBreak, type FrontMatterSplit } from './front-matter.js';
export { checkRoleSet } from './role-set.js';
export { fileNameKey, roleFileName, serializeRoleFile } from './serialize.js';
export { computePlan } from './compute-plan.js';
export { globMatcher, indexRoles, matchRoles, type Matching } from './matching.js';
export { globToRegExp } from '../glob.js';
export { checkPlanFresh, planHasChanges, type Freshness } from './plan-fresh.js';
export { nameStateHash, roleStateHash } from './hash.js';
export { planBaseUrl } from '../printed-url.js';
export { contentDiff } from './content-diff.js';
export { plural, quote, showName, printableLine, thousands } from './display.js';
export {
  PLAN_FORMAT_VERSION,
  type ChangeAction,
  type ChangedField,
  type Plan,
  type PlanChange,
  type PlanGuard,
  type PlanOptions,
  type PlanRoleState,
  type PlanSummary,
} from './plan-types.js';
export { planSummaryLine, renderPlanText } from './render-text.js';
export { planDigest, renderPlanJson } from './render-json.js';
export { planGuards, type GuardOptions } from './plan-guards.js';
export { savedPlanRefusals } from './plan-saved.js';
export { compare } from './plan-notes.js';
export { GITHUB_COMMENT_LIMIT, renderPlanMarkdown } from './render-markdown.js';
