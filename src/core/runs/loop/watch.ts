import { SNAPSHOT_DIR } from '../../flows/checks/snapshot.js';
import type { FlowTestFile } from '../../flows/types.js';

/**
 * `test --watch`, the pure part: which tests a batch of saved files reruns. Paths are absolute,
 * with `/`; the flow test files as the run loads them.
 */

/** What a saved file is to the watch. */
export type WatchedChange =
  | { kind: 'flow-file'; abs: string }
  | { kind: 'snapshot'; abs: string; flowFile: string }
  | { kind: 'schema'; abs: string }
  | { kind: 'role'; abs: string };

/** Where the watched files are. */
export interface WatchRoots {
  /** The PATH arguments (or the flows folder): folders and flow test files. */
  flows: readonly string[];
  rolesDir: string;
  /** Schema files the flow tests name. */
  schemas: ReadonlySet<string>;
}

/** What a saved path is; undefined when the watch does not care (another file, a report, state). */
export function classifyChange(abs: string, roots: WatchRoots): WatchedChange | undefined {
  if (roots.schemas.has(abs)) return { kind: 'schema', abs };
  const name = abs.slice(abs.lastIndexOf('/') + 1);
  const parent = abs.slice(0, abs.lastIndexOf('/'));
  if (within(abs, roots.rolesDir) && name.endsWith('.md') && name !== 'README.md') return { kind: 'role', abs };
  if (!roots.flows.some((root) => root === abs || within(abs, root))) return undefined;
  if (parent.endsWith(`/${SNAPSHOT_DIR}`) && name.endsWith('.snap.yaml')) {
    return { kind: 'snapshot', abs, flowFile: `${parent.slice(0, -SNAPSHOT_DIR.length - 1)}/${name.slice(0, -'.snap.yaml'.length)}` };
  }
  if (/\.ya?ml$/.test(name) && !abs.includes(`/${SNAPSHOT_DIR}/`)) return { kind: 'flow-file', abs };
  return undefined;
}

/** A flow test file as the watch knows it: its file (absolute), and what its tests name. */
export interface WatchedFile {
  abs: string;
  flows: ReadonlySet<string>;
  /** Schema files (absolute) its `schema:` assertions name. */
  schemas: ReadonlySet<string>;
  /** Roles its `not_leaks` assertions name (`*`: every Role). */
  leakRoles: ReadonlySet<string>;
}

/** What a flow test file names (`schemaAbs` resolves a `schema:` file against the flow file). */
export function watchedFile(abs: string, file: FlowTestFile, schemaAbs: (relative: string) => string): WatchedFile {
  const flows = new Set<string>([file.flow]);
  const schemas = new Set<string>();
  const leakRoles = new Set<string>();
  for (const test of file.tests) {
    for (const a of test.expect.outputs) {
      if (a.operator === 'schema' && typeof a.expected === 'string') schemas.add(schemaAbs(a.expected));
      if (a.operator === 'not_leaks') leakRoles.add(String(a.expected));
    }
  }
  return { abs, flows, schemas, leakRoles };
}

/** The tests a batch reruns: some flow test files, or all of them; with the reasons, for the line that says so. */
export interface RerunScope {
  files: 'all' | string[];
  reasons: string[];
}

/**
 * Which flow test files a batch of changes reruns: a changed flow test file itself; the flow test
 * file of a snapshot file; those naming a changed schema file; for changed Roles (`roleNames`, as
 * the role files name them now and before), those whose flows use one of them — when `flowsOfRole`
 * (the embedded tenant's flows config) says which flows do — and those whose `not_leaks` names
 * one; without `flowsOfRole`, every file. Undefined: nothing to rerun.
 */
export function rerunScope(
  changes: readonly WatchedChange[],
  known: readonly WatchedFile[],
  roles: { names: ReadonlySet<string>; flowsOfRole: ReadonlyMap<string, ReadonlySet<string>> | undefined },
  shown: (abs: string) => string,
): RerunScope | undefined {
  const files = new Set<string>();
  const reasons: string[] = [];
  for (const change of changes) {
    if (change.kind === 'flow-file') files.add(change.abs);
    else if (change.kind === 'snapshot') files.add(change.flowFile);
    else if (change.kind === 'schema') for (const f of known) if (f.schemas.has(change.abs)) files.add(f.abs);
    if (change.kind !== 'role') reasons.push(`${shown(change.abs)} changed`);
  }
  if (changes.some((c) => c.kind === 'role')) {
    const names = [...roles.names];
    reasons.push(`Role${names.length === 1 ? '' : 's'} ${names.join(', ') || '(unnamed)'} changed`);
    if (roles.flowsOfRole === undefined) return { files: 'all', reasons };
    const flows = new Set(names.flatMap((n) => [...(roles.flowsOfRole!.get(n) ?? [])]));
    for (const f of known) {
      if ([...f.flows].some((flow) => flows.has(flow)) || f.leakRoles.has('*') || names.some((n) => f.leakRoles.has(n))) files.add(f.abs);
    }
  }
  return files.size === 0 && !changes.some((c) => c.kind === 'role') ? undefined : { files: [...files].sort(), reasons };
}

function within(abs: string, dir: string): boolean {
  return abs.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}
