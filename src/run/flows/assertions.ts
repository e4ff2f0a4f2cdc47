import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { tenantVars, type Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError, type Issue } from '../../core/errors.js';
import {
  LeakIndex,
  liveSnapshotKeys,
  obsoleteKeys,
  snapshotKey,
  unknownLeakRoles,
  usesOperator,
  unknownJudges,
  valueAt,
  withoutIgnored,
  type AssertionContext,
  type ExecutionResult,
  type FlowTest,
  type FlowTestFile,
  leakTexts,
  type RoleText,
  type SnapshotBaseline,
  type Transport,
} from '../../core/flows/index.js';
import { plural, type RoleFile } from '../../core/roles/index.js';
import { loadRoleFiles, loadRoleTexts, rolesDirOf } from '../../files/role-files.js';
import { dirExists, type SourceDir } from '../../files/source-files.js';
import { readSnapshotFile, repositoryRoot, snapshotFileOf, snapshotLinkIssue, writeSnapshotFile } from '../../files/flows/snapshot-files.js';
import type { SourceFile } from '../../files/source-files.js';

export interface AssertionSetupOptions {
  cwd: string;
  config: Config;
  /** The flow files of the run, as loaded (their names relative to `cwd`). */
  flows: readonly FlowTestFile[];
  /** `test -u`: write every snapshot the run sees, and remove obsolete ones. */
  updateSnapshots: boolean;
  env: Record<string, string | undefined>;
  /** The tenant the run is against: `not_leaks` looks for the Roles as rendered for it. */
  tenant: string;
  /** The role files `not_leaks` looks for, when not the roles folder's (`preview`'s base: another commit's). */
  roleFiles?: readonly RoleFile[];
  /** Write no snapshot file (`preview`): a missing snapshot is compared within the run only. */
  readOnly?: boolean;
  /** `--no-judge`: judge assertions are skipped, never passed. */
  noJudge?: boolean;
  /** Read the judges' prompt Roles whatever the flows hold (`test --judges`). */
  judgeRoles?: boolean;
  /** `test --ci-update`: `-u` is allowed under CI. */
  ciUpdate?: boolean;
}

interface SnapshotFileState {
  file: SourceFile;
  flowFile: string;
  stored: Map<string, unknown>;
  next: Map<string, unknown>;
  obsolete: string[];
  /** Keys this run has set in `next` (one test × transport sets its own once). */
  taken: Set<string>;
  changed: number;
}

/**
 * What the run's output assertions need from files: the Roles' texts for `not_leaks` (from the
 * configured roles folder, read only when a test uses it, rendered for the run's tenant) and the snapshot files of the flow files;
 * afterwards, `finish` writes the snapshots the run produced. Unreadable files and unknown Roles
 * stop the run before anything is sent (`InvalidFilesError`).
 */
export class AssertionFiles {
  private readonly indexes = new Map<string, LeakIndex | undefined>();
  private mask: ((value: unknown) => unknown) | undefined;
  /** `--no-judge`. */
  noJudge = false;
  /** The contents of the judges' prompt Roles, by name (read only when a test has a judge assertion). */
  judgeRoles: ReadonlyMap<string, string> = new Map();

  private constructor(
    private readonly roles: readonly RoleText[],
    private readonly snapshots: Map<string, SnapshotFileState>,
    private readonly update: boolean,
    private readonly ci: boolean,
    private readonly readOnly: boolean,
  ) {}

  static async prepare(options: AssertionSetupOptions): Promise<AssertionFiles> {
    if (options.updateSnapshots && isCi(options.env) && !options.ciUpdate) {
      throw new RoleflowError('-u (--update-snapshots) is refused under CI: a CI run checks snapshots against __snapshots__/, it does not rewrite them to pass; update them locally and commit them, or add --ci-update if this job is meant to write them', 'usage');
    }
    const issues: Issue[] = [];
    let roles: RoleText[] = [];
    if (usesOperator(options.flows, 'not_leaks')) {
      const dir = rolesDirOf(options.cwd, options.config, undefined);
      const vars = tenantVars(options.config, options.tenant);
      const loaded = options.roleFiles ? { ok: true as const, value: leakTexts(options.roleFiles, vars) } : await loadRoleTexts(options.cwd, dir, vars);
      if (loaded.ok) {
        roles = loaded.value;
        issues.push(...unknownLeakRoles(options.flows, roles.map((r) => r.name), dir.display));
      } else issues.push(...loaded.issues);
    }
    const snapshots = new Map<string, SnapshotFileState>();
    const root = await repositoryRoot(options.cwd);
    for (const flow of options.flows) {
      const file = snapshotFileOf({ abs: resolve(options.cwd, flow.file), file: flow.file });
      const outside = liveSnapshotKeys(flow).size > 0 || options.updateSnapshots ? await snapshotLinkIssue(file, root) : undefined;
      if (outside) {
        issues.push(outside);
        continue;
      }
      const stored = await readSnapshotFile(file);
      if (!stored.ok) {
        issues.push(...stored.issues);
        continue;
      }
      const live = liveSnapshotKeys(flow);
      if (live.size === 0 && stored.value.size === 0) continue;
      const obsolete = obsoleteKeys(stored.value, live);
      const next = new Map(stored.value);
      if (options.updateSnapshots) for (const k of obsolete) next.delete(k);
      snapshots.set(flow.file, { file, flowFile: flow.file, stored: stored.value, next, obsolete, taken: new Set(), changed: 0 });
    }
    const judged = options.judgeRoles || usesOperator(options.flows, 'judge') ? await judgeRoleContents(options) : { roles: new Map<string, string>(), issues: [] };
    issues.push(...judged.issues);
    if (issues.length > 0) throw new InvalidFilesError(issues);
    const files = new AssertionFiles(roles, snapshots, options.updateSnapshots, isCi(options.env) && !options.updateSnapshots, options.readOnly === true);
    files.noJudge = options.noJudge === true;
    files.judgeRoles = judged.roles;
    return files;
  }

  /** Mask the run's secrets in snapshots (known once the runs are chosen): they are never written. */
  maskWith(mask: (value: unknown) => unknown): void {
    this.mask = mask;
  }

  /**
   * The context one test × transport is judged in. A snapshot with nothing stored (or every one,
   * under `-u`) takes the first repeat's value, which every repeat is then compared with, and is
   * written by `finish` — except under CI, where a missing snapshot fails.
   */
  contextFor(test: FlowTest, transport: Transport, executions: readonly (ExecutionResult | undefined)[] = []): AssertionContext {
    const baselines = new Map<string, SnapshotBaseline>();
    const state = this.snapshots.get(test.file);
    for (const a of test.expect.outputs) {
      if (a.operator !== 'snapshot' || !state) continue;
      const key = snapshotKey(test.name, transport, a.path);
      if (!this.update && state.stored.has(key)) {
        baselines.set(key, { value: state.stored.get(key), source: 'file' });
        continue;
      }
      const first = executions.find((e) => e !== undefined && e.status !== 'error' && e.endedBy !== 'interrupted' && valueAt(e.outputs, a.segments).found);
      if (first === undefined) continue;
      const kept = withoutIgnored(valueAt(first.outputs, a.segments).value, a.ignore ?? []);
      const value = this.mask ? this.mask(kept) : kept;
      baselines.set(key, { value, source: this.update ? 'update' : 'new' });
      if (this.ci || state.taken.has(key)) continue;
      state.taken.add(key);
      state.next.set(key, value);
      if (!state.stored.has(key) || !isDeepStrictEqual(state.stored.get(key), value)) state.changed += 1;
    }
    // Member by member (once per test): a literal's members after a spread cost V8 a runtime call each.
    const context: AssertionContext = { snapshots: baselines };
    if (this.ci) context.ci = true;
    context.leaks = (role, minChars) => this.leakIndex(role, minChars);
    if (this.mask) context.mask = this.mask;
    if (this.noJudge) context.noJudge = true;
    return context;
  }

  /** Write the snapshot files that changed; one line per file written and per obsolete snapshot. */
  async finish(): Promise<string[]> {
    const notes: string[] = [];
    if (this.readOnly) return notes;
    for (const state of this.snapshots.values()) {
      const removed = this.update ? state.obsolete.length : 0;
      if (state.changed > 0 || removed > 0) {
        await writeSnapshotFile(state.file, state.next, state.flowFile);
        const parts = [state.changed > 0 && `${plural(state.changed, 'snapshot')} written`, removed > 0 && `${plural(removed, 'obsolete snapshot')} removed`];
        notes.push(`${state.file.file}: ${parts.filter(Boolean).join(', ')}`);
      }
      if (!this.update) {
        for (const key of state.obsolete) notes.push(`${state.file.file}: obsolete snapshot ${JSON.stringify(key)} (no test writes it; roleflow test -u removes it)`);
      }
    }
    return notes;
  }

  private leakIndex(role: string, minChars: number): LeakIndex | undefined {
    const key = `${minChars}\u0000${role}`;
    if (!this.indexes.has(key)) {
      const texts = role === '*' ? this.roles : this.roles.filter((r) => r.name === role);
      this.indexes.set(key, texts.length === 0 ? undefined : new LeakIndex(texts, minChars));
    }
    return this.indexes.get(key);
  }
}

/**
 * The judges `judge` assertions name, checked against the config's `judges:` (an unknown one is an
 * issue at the assertion), and the content of each judge's prompt Role from the roles folder
 * (absent there: ''), which every verdict's digest holds.
 */
async function judgeRoleContents(options: AssertionSetupOptions): Promise<{ roles: Map<string, string>; issues: Issue[] }> {
  const { judges } = options.config;
  const issues = unknownJudges(options.flows, Object.keys(judges));
  const roles = new Map<string, string>();
  const files = options.roleFiles ? { ok: true as const, value: options.roleFiles } : await loadRoleFilesIfAny(options.cwd, rolesDirOf(options.cwd, options.config, undefined));
  if (!files.ok) return { roles, issues: [...issues, ...files.issues] };
  const wanted = new Set(Object.values(judges).map((j) => j.role));
  for (const f of files.value) if (wanted.has(f.name)) roles.set(f.name, f.content);
  return { roles, issues };
}

/** `CI` set to anything but empty, `0` or `false`, as CI services do. */
function isCi(env: Record<string, string | undefined>): boolean {
  const v = env['CI'];
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** The role files of `dir`; none when the folder does not exist (a judge's Role is then "" ). */
async function loadRoleFilesIfAny(cwd: string, dir: SourceDir): Promise<{ ok: true; value: readonly RoleFile[] } | { ok: false; issues: Issue[] }> {
  return (await dirExists(dir)) ? loadRoleFiles(cwd, dir) : { ok: true, value: [] };
}
