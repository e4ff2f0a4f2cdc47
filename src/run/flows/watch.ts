import { dirname, resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { safeText } from '../../core/text/safe-text.js';
import { classifyChange, rerunScope, watchedFile, type WatchedChange, type WatchedFile, type WatchRoots } from '../../core/runs/loop/watch.js';
import { defaultFlowsDir, existingPath, findFlowFiles, parseFlowTestFiles } from '../../files/flows/flow-files.js';
import { rolesDirOf } from '../../files/role-files.js';
import { displayPath } from '../../files/source-files.js';
import { digestOf, filesUnder, startWatchers } from '../../files/runs/watch-files.js';
import { isEmbedded, type OpenTenant } from '../../tenant/open-tenant.js';
import { describeError } from '../../terminal/error-line.js';
import type { Ports } from '../ports.js';
import { oneTenant, openOneTenant, type ManyTenantsOptions } from '../tenants.js';
import { embeddedFlowsOfRole, WatchedRoles } from './watch-roles.js';

/** What `test --watch` reads of `test`'s options. */
export interface WatchTestOptions extends ManyTenantsOptions {
  paths: readonly string[];
  lastFailed?: boolean | undefined;
  failedFrom?: string | undefined;
  verbose?: boolean | undefined;
}

/**
 * `test --watch`: `runTests` (the `test` verb without `--watch`) once, then again on every saved
 * change (`watchTests`), every run under one Ctrl-C, which ends the watch (130).
 */
export function watchTest(
  options: WatchTestOptions,
  ports: Ports,
  config: Config,
  several: readonly string[] | undefined,
  runTests: (paths: readonly string[], ports: Ports) => Promise<number>,
): Promise<number> {
  if (several !== undefined) throw new RoleflowError('--watch runs the tests of one tenant: not with several (--all-tenants, --tenant more than once)', 'usage');
  if (options.lastFailed || options.failedFrom !== undefined) throw new RoleflowError('--watch reruns the tests whose files change: not with --last-failed or --failed-from', 'usage');
  const signal = ports.interruption(() => ports.output.err('Interrupted: ending the executions in flight; the watch ends.'));
  const inner: Ports = { ...ports, interruption: () => signal };
  const embedded = isEmbedded(config, { tenant: oneTenant(options, ports, 'test'), baseUrl: options.baseUrl });
  return watchTests(
    { cwd: ports.cwd, config, paths: options.paths, embedded },
    {
      run: (paths) => runTests(paths ?? options.paths, inner),
      openTenant: () => openOneTenant(ports, config, options, 'test'),
      out: (line) => ports.output.out(line),
      err: (line) => ports.output.err(line),
      describe: (error) => describeError(error, options.verbose === true, ['test']),
      signal,
      now: () => ports.clock.now(),
    },
  );
}

export interface WatchOptions {
  cwd: string;
  config: Config;
  /** The PATH arguments (none: the flows folder). */
  paths: readonly string[];
  /** The tests run against the embedded tenant, whose flows file says which flows use which Role. */
  embedded: boolean;
  /** Saves within this many milliseconds of each other are one change (default 150). */
  debounceMs?: number;
}

export interface WatchPorts {
  /** One run of the tests in `paths` (none given: the watch's own): its exit code. A thrown error is shown, and the watch goes on. */
  run(paths: readonly string[] | undefined): Promise<number>;
  /** The tenant the tests run against, opened for applying changed role files (and closed after). */
  openTenant(): Promise<OpenTenant>;
  out(line: string): void;
  err(line: string): void;
  /** An error as the one line a command prints for it. */
  describe(error: unknown): string;
  /** Ctrl-C: ends the run in flight and the watch. */
  signal: AbortSignal;
  now(): Date;
}

/**
 * `test --watch`: a first run, then a run again after every saved change to the tests' files, their
 * schemas and snapshots, and the role files (saves close together are one change; a file saved
 * with the same content is none). A changed role file is applied first — to the embedded tenant,
 * or a tenant marked `watch_apply: true` — and reruns the tests whose flows use its Role (the
 * embedded tenant's flows file says which), else every test. A run that fails, an invalid file,
 * a refused apply: the error is shown and the watch goes on. Ctrl-C ends it: 130. A PATH that does
 * not exist at the start is an error (exit 1) before any run.
 */
export async function watchTests(opts: WatchOptions, ports: WatchPorts): Promise<number> {
  const { cwd, config } = opts;
  // A PATH that is not there at the start is a typo, not a file yet to come: the watch does not begin.
  for (const path of opts.paths) await existingPath(cwd, path);
  const flowRoots = (opts.paths.length > 0 ? opts.paths : [await defaultFlowsDir(cwd, config)]).map((p) => resolve(cwd, p));
  const rolesDir = rolesDirOf(cwd, config, undefined);
  const shown = (abs: string) => displayPath(cwd, abs);
  // A saved file's name is printed as any path from outside is: one line, no control characters.
  const printed = (abs: string) => safeText(shown(abs));
  let known = await knownFiles(cwd, opts.paths, config);
  const roles = await WatchedRoles.read(cwd, config, rolesDir);
  const roots = (): WatchRoots => ({ flows: flowRoots, rolesDir: rolesDir.abs, schemas: new Set(known.flatMap((f) => [...f.schemas])) });
  const digests = new Map<string, string | null>();
  for (const abs of await filesUnder(cwd, [...flowRoots, rolesDir.abs, ...roots().schemas])) digests.set(abs, await digestOf(abs));

  const saved = new Set<string>();
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onSave = (abs: string) => {
    saved.add(abs);
    clearTimeout(timer);
    timer = setTimeout(() => wake?.(), opts.debounceMs ?? 150);
  };
  const watchers = startWatchers([...flowRoots, rolesDir.abs, ...roots().schemas], onSave, ports.err);
  const stop = () => wake?.();
  ports.signal.addEventListener('abort', stop);

  const runOnce = async (paths: readonly string[] | undefined): Promise<void> => {
    try {
      await ports.run(paths);
    } catch (error) {
      ports.err(ports.describe(error));
    }
    // Snapshot files the run wrote are no change of the user's.
    for (const [abs] of digests) if (abs.includes('/__snapshots__/')) digests.set(abs, await digestOf(abs));
    if (!ports.signal.aborted) ports.out('Watching for changes (Ctrl-C to stop)…');
  };

  try {
    await runOnce(undefined);
    while (!ports.signal.aborted) {
      if (saved.size === 0) await new Promise<void>((done) => (wake = done));
      if (ports.signal.aborted) break;
      const batch = [...saved];
      saved.clear();
      const changes: WatchedChange[] = [];
      for (const abs of batch) {
        const change = classifyChange(abs, roots());
        if (change === undefined) continue;
        const digest = await digestOf(abs);
        if (digests.has(abs) && digests.get(abs) === digest) continue;
        digests.set(abs, digest);
        // A flow test file removed has nothing left to run.
        if (change.kind !== 'flow-file' || digest !== null) changes.push(change);
      }
      if (changes.length === 0) continue;
      const roleChanges = changes.filter((c) => c.kind === 'role').map((c) => c.abs);
      let names = new Set<string>();
      if (roleChanges.length > 0) {
        const applied = await roles.apply(roleChanges, ports);
        if (applied === undefined) continue;
        names = applied;
      }
      known = await knownFiles(cwd, opts.paths, config);
      const flowsOfRole = roleChanges.length > 0 && opts.embedded ? await embeddedFlowsOfRole(cwd, config) : undefined;
      const scope = rerunScope(changes, known, { names, flowsOfRole }, printed);
      if (scope === undefined) continue;
      if (scope.files !== 'all' && scope.files.length === 0) {
        ports.out(`${scope.reasons.join('; ')}: no test uses ${names.size === 1 ? 'it' : 'them'}`);
        continue;
      }
      const which = scope.files === 'all' ? 'every test' : scope.files.map(printed).join(', ');
      ports.out(`\n↻ ${scope.reasons.join('; ')}: running ${which}`);
      await runOnce(scope.files === 'all' ? undefined : scope.files.map(shown));
    }
  } finally {
    clearTimeout(timer);
    ports.signal.removeEventListener('abort', stop);
    for (const w of watchers) w.close();
  }
  return ExitCode.Interrupted;
}

/**
 * The flow test files the watch knows, each valid one with what it names (an invalid one is left
 * out until it is fixed). A schema file it names is not read here: while that one is invalid, the
 * flow test file stays known, so saving the schema file reruns it (the run shows the error).
 */
async function knownFiles(cwd: string, paths: readonly string[], config: Config): Promise<WatchedFile[]> {
  const sources = await findFlowFiles(cwd, paths.length > 0 ? paths : [await defaultFlowsDir(cwd, config)]).catch(() => []);
  const known: WatchedFile[] = [];
  for (const source of sources) {
    const parsed = await parseFlowTestFiles([source]);
    if (parsed.issues.length === 0 && parsed.values[0]) known.push(watchedFile(source.abs, parsed.values[0], (rel) => resolve(dirname(source.abs), rel)));
  }
  return known;
}


