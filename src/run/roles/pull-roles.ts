import { mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { formatIssue, InvalidFilesError, RoleflowError } from '../../core/errors.js';
import type { Role } from '../../core/model.js';
import {
  checkRoleSet,
  escapeVars,
  fileNameKey,
  filesForTenant,
  notForTenantReason,
  parseRoleFile,
  renderRoleFiles,
  renderVars,
  roleFileName,
  serializeRoleFile,
  type RoleFile,
  type TenantVars,
} from '../../core/roles/index.js';
import { withoutJournalRole } from '../../core/roles/reserved.js';
import { secretFields, type SecretScanner } from '../../core/config/policy/index.js';
import { globMatcher } from '../../core/plan/index.js';
import { loadSchema } from '../../files/package-root.js';
import { loadRoleFiles, writeFileAtomic } from '../../files/role-files.js';
import { dirExists, displayPath, type SourceDir } from '../../files/source-files.js';

export type PullStatus = 'written' | 'overwritten' | 'unchanged' | 'skipped';

export interface PulledRole {
  /** The role file, as shown (`roles/a.md`); absent when the Role got no file. */
  file?: string;
  name: string;
  id: string;
  status: PullStatus;
  /** Why a Role was skipped. */
  reason?: string;
}

export interface PullResult {
  roles: PulledRole[];
  /** Role files for this tenant whose Role is not on it: left alone. */
  localOnly: string[];
  /** Role files that are not for this tenant (front-matter `tenants:`), whose Role is not on it: left alone. */
  notForTenant: string[];
  /** Role files without `id` whose name several Roles hold. */
  ambiguous: { file: string; name: string; count: number }[];
  /** Names several Roles of the tenant hold: their files tell them apart by `id` alone. */
  sharedNames: { name: string; count: number }[];
}

/**
 * `pull`: write each tenant Role (but those `ignore` matches) as a role file with its `id`. A Role
 * that has a file (by id, else by its unique name) keeps that file; others get a new file named by
 * `roleFileName`, always directly in the folder whatever the name holds. A file that already says
 * what the tenant says is left alone; one that says otherwise is only overwritten with `force`.
 * Every write is decided first and the folder it would leave is checked as `validate` checks it:
 * pull never leaves a folder that `validate` refuses (it writes nothing then).
 */
export async function pullRoles(opts: {
  cwd: string;
  dir: SourceDir;
  remote: readonly Role[];
  ignore: string[];
  force: boolean;
  /** The tenant pulled from, and its variables: a file is compared with the Role as rendered for it. */
  tenant: string;
  vars: TenantVars;
  /** `--target NAME_OR_GLOB`: only the Roles these match are pulled, and only their files are spoken of. */
  targets?: readonly string[];
  /** Secrets (tokens, keys): a Role holding one gets no file, as no file roleflow writes holds one. */
  secrets?: SecretScanner;
}): Promise<PullResult> {
  const { cwd, dir } = opts;
  let local: RoleFile[] = [];
  /** Each file as this tenant gets it; absent for files that are not for this tenant. */
  const rendered = new Map<RoleFile, RoleFile>();
  if (await dirExists(dir)) {
    const loaded = await loadRoleFiles(cwd, dir);
    // A file that cannot be read might be any Role's: writing around it could make a duplicate.
    if (!loaded.ok) throw new InvalidFilesError(loaded.issues);
    local = loaded.value;
    const { kept } = filesForTenant(local, opts.tenant);
    const forTenant = renderRoleFiles(kept, opts.tenant, opts.vars);
    if (!forTenant.ok) throw new InvalidFilesError(forTenant.issues);
    kept.forEach((f, i) => rendered.set(f, forTenant.value[i]!));
  } else {
    await mkdir(dir.abs, { recursive: true });
  }
  const ignored = globMatcher(opts.ignore);
  const targeted = opts.targets === undefined || opts.targets.length === 0 ? () => true : ((m) => (name: string) => m(name) !== undefined)(globMatcher(opts.targets));
  // The journal's Role (`history.store: tenant`) is roleflow's own: never written as a role file.
  const remote = withoutJournalRole(opts.remote).filter((r) => ignored(r.name) === undefined && targeted(r.name)).sort((a, b) => cmp(a.name, b.name) || cmp(a.id, b.id));

  const nameCount = new Map<string, number>();
  for (const r of remote) nameCount.set(r.name, (nameCount.get(r.name) ?? 0) + 1);
  const byId = new Map<string, RoleFile>();
  const byName = new Map<string, RoleFile>();
  for (const f of local) {
    if (f.id !== undefined) byId.set(f.id, f);
    else byName.set(f.name, f);
  }
  const taken = new Set((await readdir(dir.abs)).map(fileNameKey));
  const result: PullResult = { roles: [], localOnly: [], notForTenant: [], ambiguous: [], sharedNames: [] };
  for (const [name, count] of nameCount) if (count > 1) result.sharedNames.push({ name, count });
  const claimed = new Set<RoleFile>();
  const schema = loadSchema('role');
  /** The files as they will be: each local file, or what replaces it; then the new ones. */
  const after = new Map<string, RoleFile>(local.map((f) => [f.file, f]));
  const writes: { path: string; text: string }[] = [];

  for (const role of remote) {
    const secret = opts.secrets === undefined ? undefined : secretFields(role, opts.secrets)[0];
    if (secret !== undefined) {
      result.roles.push({ name: role.name, id: role.id, status: 'skipped', reason: `its ${secret.field} on the tenant holds ${secret.kind}: a role file must not hold it (remove it on the tenant, then pull)` });
      continue;
    }
    // Written so that rendering gives the Role back: `${vars.` in it is escaped.
    const text = serializeRoleFile({ name: role.name, description: escapeVars(role.description), id: role.id, content: escapeVars(role.content) });
    const parsed = readBack(role, text, schema);
    if (!parsed.ok) {
      result.roles.push({ name: role.name, id: role.id, status: 'skipped', reason: `a role file cannot hold it: ${parsed.reason}` });
      continue;
    }
    const mine = byId.get(role.id) ?? (nameCount.get(role.name) === 1 ? byName.get(role.name) : undefined);
    if (mine !== undefined) {
      claimed.add(mine);
      const entry = { file: mine.file, name: role.name, id: role.id };
      const seen = rendered.get(mine);
      if (seen === undefined) {
        // Its file keeps it off this tenant: what it says is for other tenants, so it stays.
        result.roles.push({ ...entry, status: 'skipped', reason: `its file is ${notForTenantReason(mine, opts.tenant)}: left alone` });
      } else if (mine.name === role.name && seen.description === role.description && seen.content === role.content) {
        result.roles.push({ ...entry, status: 'unchanged' });
      } else if (!opts.force) {
        result.roles.push({ ...entry, status: 'skipped', reason: 'it differs from the Role on the tenant (--force overwrites it)' });
      } else {
        // The file keeps the tenants it is for.
        const kept = mine.tenants === undefined ? text : serializeRoleFile({ ...parsed.file, tenants: mine.tenants });
        writes.push({ path: resolve(cwd, mine.file), text: kept });
        after.set(mine.file, { ...parsed.file, file: mine.file });
        result.roles.push({ ...entry, status: 'overwritten' });
      }
      continue;
    }
    // A file without id holds this name, which several Roles share: a new file beside it would
    // hold the name twice, and which Role that file means is for the user to say.
    const unpinned = byName.get(role.name);
    if (unpinned !== undefined) {
      result.roles.push({ name: role.name, id: role.id, status: 'skipped', reason: `${unpinned.file} holds its name without an id: add "id:" there to pin the Role it manages` });
      continue;
    }
    const fileName = roleFileName(role.name, taken);
    taken.add(fileNameKey(fileName));
    const path = insideFolder(dir.abs, fileName);
    const shown = displayPath(cwd, path);
    writes.push({ path, text });
    after.set(shown, { ...parsed.file, file: shown });
    result.roles.push({ file: shown, name: role.name, id: role.id, status: 'written' });
  }

  const left = checkRoleSet([...after.values()]);
  if (left.length > 0) {
    throw new RoleflowError(`pull wrote nothing: the folder would not pass validate (${formatIssue(left[0]!)})`);
  }
  for (const { path, text } of writes) await writeFileAtomic(path, text);

  for (const f of local) {
    if (claimed.has(f) || !targeted(f.name)) continue;
    const count = f.id === undefined ? (nameCount.get(f.name) ?? 0) : 0;
    if (count > 1) result.ambiguous.push({ file: f.file, name: f.name, count });
    else if (ignored(f.name) === undefined) (rendered.has(f) ? result.localOnly : result.notForTenant).push(f.file);
  }
  return result;
}

/**
 * The role file `text` reads as, when it reads back as the same Role; otherwise why not (an empty
 * name, a NUL character, more than the size limit).
 */
function readBack(role: Role, text: string, schema: object): { ok: true; file: RoleFile } | { ok: false; reason: string } {
  const parsed = parseRoleFile(text, 'pulled', schema);
  if (!parsed.ok) return { ok: false, reason: parsed.issues[0]?.message ?? 'it does not parse' };
  const back = parsed.value;
  // Escaped text renders back to itself whatever the variables: none are needed to check it. It
  // only shrinks (`$${vars.` → `${vars.`), so its own length bounds it.
  const none = new Map<string, string>();
  const description = renderVars(back.description, none, back.description.length).text;
  const content = renderVars(back.content, none, back.content.length).text;
  if (back.name !== role.name || description !== role.description || content !== role.content) return { ok: false, reason: 'it would not read back the same' };
  return { ok: true, file: back };
}

/** The path of `fileName` directly in `dir`, checked: `pull` never writes outside its folder. */
function insideFolder(dir: string, fileName: string): string {
  const path = resolve(dir, fileName);
  if (dirname(path) !== resolve(dir) || basename(path) !== fileName) {
    throw new RoleflowError(`refusing to write ${JSON.stringify(fileName)}: it would not be directly in ${dir}`);
  }
  return join(dir, fileName);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
