import { configuredTenant, type Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError, type Result } from '../../core/errors.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { flowRoleReferences } from '../../emulator/flow-role-refs.js';
import { embeddedFlowsOf } from '../../files/config-file.js';
import { loadRoleFiles } from '../../files/role-files.js';
import { displayPath } from '../../files/source-files.js';
import { planSummaryLine } from '../../core/plan/index.js';
import type { RoleFile } from '../../core/roles/index.js';
import type { SourceDir } from '../../files/source-files.js';
import { LOCAL_TENANT, type OpenTenant } from '../../tenant/open-tenant.js';
import { executePlan } from '../roles/apply-plan.js';
import { makeFreshPlan } from '../roles/fresh-plan.js';
import { refuseBrokenPlan } from '../roles/saved-plan.js';

/**
 * Whether `test --watch` applies changed role files to this tenant: the embedded one, or one
 * marked `watch_apply: true` — never another, whatever is saved.
 */
export function watchApplies(config: Config, tenant: OpenTenant): boolean {
  if (tenant.location.startsWith('embedded:')) return true;
  return configuredTenant(config, tenant.target.name)?.watchApply === true;
}

/**
 * The Roles of `changed` role files (as `files` names them) applied to the tenant: a plan of those
 * Roles alone (no prune: a deleted file deletes nothing), refused by the same guards as `apply`
 * (protect, max_deletes), then carried out. One line says what was done; a failure is an error.
 */
export async function applyChangedRoles(opts: {
  cwd: string;
  config: Config;
  rolesDir: SourceDir;
  files: readonly RoleFile[];
  changed: readonly string[];
  tenant: OpenTenant;
  now: Date;
  signal: AbortSignal;
}): Promise<string> {
  const { tenant } = opts;
  const fresh = await makeFreshPlan({
    cwd: opts.cwd,
    config: opts.config,
    rolesDir: opts.rolesDir,
    prune: false,
    allowEmptyPrune: false,
    // The watch's own tenant: the plan must not close it.
    open: () => Promise.resolve({ ...tenant, close: async () => undefined }),
    now: opts.now,
    roleFiles: opts.changed,
    files: Promise.resolve({ ok: true, value: [...opts.files] }),
  });
  refuseBrokenPlan(fresh.plan);
  const where = tenant.target.name === LOCAL_TENANT ? 'the embedded tenant' : `tenant ${tenant.target.name}`;
  if (fresh.plan.changes.length === 0) return `${where} already holds ${opts.changed.length === 1 ? 'this Role' : 'these Roles'}`;
  const outcomes = await executePlan(fresh.plan, tenant.client, { concurrency: opts.config.roles.concurrency, stopped: () => opts.signal.aborted });
  const failed = outcomes.filter((o) => !['created', 'updated', 'deleted'].includes(o.status));
  if (failed.length > 0) {
    const first = failed[0]!;
    throw new RoleflowError(`applying to ${where} did not complete: ${first.name} ${first.status}${first.error ? ` (${first.error})` : ''}${failed.length > 1 ? `, and ${failed.length - 1} more` : ''}`);
  }
  return `applied to ${where} (${planSummaryLine(fresh.plan)})`;
}

/** What `WatchedRoles.apply` needs of the watch's ports. */
export interface RolePorts {
  openTenant(): Promise<OpenTenant>;
  out(line: string): void;
  err(line: string): void;
  describe(error: unknown): string;
  now(): Date;
  signal: AbortSignal;
}

/** The role files as the watch last read them: which Role each file holds, before and after a save. */
export class WatchedRoles {
  private constructor(
    private readonly cwd: string,
    private readonly config: Config,
    private readonly dir: SourceDir,
    private files: Result<RoleFile[]>,
  ) {}

  static async read(cwd: string, config: Config, dir: SourceDir): Promise<WatchedRoles> {
    return new WatchedRoles(cwd, config, dir, await readRoleFiles(cwd, dir));
  }

  /**
   * The Roles of the role files saved (absolute paths) applied, when the tenant takes them: their
   * names before and after the save; undefined when the role files are invalid or the apply failed
   * (the error is said).
   */
  async apply(changed: readonly string[], ports: RolePorts): Promise<Set<string> | undefined> {
    const { cwd, config } = this;
    const before = this.files;
    const now = await readRoleFiles(cwd, this.dir);
    if (!now.ok) {
      ports.err(ports.describe(new InvalidFilesError(now.issues)));
      return undefined;
    }
    this.files = now;
    const byFile = (files: readonly RoleFile[]) => new Map(files.map((r) => [resolve(cwd, r.file), r.name]));
    const [old, current] = [byFile(before.ok ? before.value : []), byFile(now.value)];
    const names = new Set(changed.flatMap((abs) => [old.get(abs), current.get(abs)].filter((n): n is string => n !== undefined)));
    const present = changed.filter((abs) => current.has(abs)).map((abs) => displayPath(cwd, abs));
    if (present.length === 0) return names;
    try {
      const tenant = await ports.openTenant();
      try {
        if (!watchApplies(config, tenant)) {
          ports.out(`${present.join(', ')} changed: not applied to tenant ${tenant.target.name} (only the embedded tenant, or one marked watch_apply: true, gets saved Roles)`);
          return names;
        }
        const line = await applyChangedRoles({ cwd, config, rolesDir: this.dir, files: now.value, changed: present, tenant, now: ports.now(), signal: ports.signal });
        ports.out(`${present.join(', ')}: ${line}`);
      } finally {
        await tenant.close();
      }
    } catch (error) {
      ports.err(ports.describe(error));
      return undefined;
    }
    return names;
  }
}

/** Role name → the flows of the embedded tenant's flows file that name it (none when the file is not readable). */
export async function embeddedFlowsOfRole(cwd: string, config: Config): Promise<Map<string, Set<string>> | undefined> {
  const flows = embeddedFlowsOf(cwd, config);
  const refs = flowRoleReferences(await readFile(flows.abs, 'utf8').catch(() => ''), flows.file);
  if (!refs.ok) return undefined;
  const map = new Map<string, Set<string>>();
  for (const ref of refs.value) map.set(ref.name, (map.get(ref.name) ?? new Set()).add(ref.flow));
  return map;
}

function readRoleFiles(cwd: string, dir: SourceDir): Promise<Result<RoleFile[]>> {
  return loadRoleFiles(cwd, dir).catch((error: unknown) => ({ ok: false as const, issues: [{ file: dir.display, line: 1, col: 1, message: String(error) }] }));
}
