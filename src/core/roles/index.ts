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
 * Per tenant
 * - `renderRoleFiles(files, tenant, vars): Result<RoleFile[]>` — `${vars.NAME}` put in; an
 *   undeclared one, or a Role over `MAX_SENT_ROLE_BYTES` once rendered, is a located issue. `escapeVars` is its inverse, for what `pull` writes.
 * - `filesForTenant(files, tenant)` — front-matter `tenants:` membership; `membershipNotes` for plans.
 */
export { decodeRoleFile, MAX_ISSUES_PER_FILE, MAX_ROLE_FILE_BYTES, parseRoleFile, type Position, type RoleFile } from './role-file.js';
export { splitFrontMatter, withoutFinalLineBreak, type FrontMatterSplit } from './front-matter.js';
export { checkRoleSet } from './role-set.js';
export { HISTORY_ROLE, withoutJournalRole } from './reserved.js';
export { fileNameKey, roleFileName, serializeRoleFile } from './serialize.js';
export { plural, quote, shellWord, showName, printableLine, thousands } from './display.js';
export { escapeVars, mergeVars, renderRoleFiles, renderVars, renderVarsWithOrigin, varIssuesOfTenants, VAR_NAME, type Rendered, type TenantVars } from './vars.js';
export { MAX_SENT_ROLE_BYTES } from './sent-size.js';
export { filesForTenant, isForTenant, membershipNotes, notForTenantReason, roleFilesForTenant, unmatchedTenantWarnings } from './membership.js';
