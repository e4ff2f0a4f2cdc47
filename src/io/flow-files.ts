import type { Dirent } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Config } from '../core/config.js';
import { RoleflowError, type Issue, type Result } from '../core/errors.js';
import { parseFlowTestFile, type FlowTestFile } from '../core/flows/index.js';
import { loadSchema } from './package-root.js';

const FLOW_FILE = /\.ya?ml$/i;
/** Folders a walk never enters: tools' state and dependencies, not tests. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * The flow test files under `paths` (files as given, folders walked for `*.yaml` / `*.yml`,
 * skipping hidden folders and node_modules), as paths relative to `cwd` with `/`, sorted, each
 * once. These paths are the files' names in every report, so annotations point at them.
 */
export async function findFlowFiles(cwd: string, paths: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new RoleflowError(`${path}: no such file or folder`);
    if (info.isDirectory()) {
      const before = found.size;
      await walk(cwd, absolute, (file) => found.add(display(cwd, file)));
      if (found.size === before) throw new RoleflowError(`${path}: no flow test files (*.yaml, *.yml) in this folder`);
    } else found.add(display(cwd, absolute));
  }
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `flows.dir` of the config, relative to the config file's folder; said plainly when missing. */
export async function defaultFlowsDir(cwd: string, config: Config): Promise<string> {
  const dir = relative(cwd, resolve(cwd, config.file === undefined ? '.' : dirname(config.file), config.flows.dir)) || '.';
  const exists = await access(resolve(cwd, dir)).then(() => true, () => false);
  if (!exists) {
    throw new RoleflowError(`no flow tests: folder ${dir}/ not found (name files or folders, or set flows.dir in roleflow.config.yaml)`);
  }
  return dir;
}

/** Parse every file; any problem in any of them is returned, each at its `file:line:col`. */
export async function loadFlowTestFiles(cwd: string, files: readonly string[]): Promise<Result<FlowTestFile[]>> {
  const schema = loadSchema('flow-test');
  const loaded: FlowTestFile[] = [];
  const issues: Issue[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(resolve(cwd, file), 'utf8');
    } catch (error) {
      issues.push({ file, line: 1, col: 1, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
      continue;
    }
    const parsed = parseFlowTestFile(text, file, schema);
    if (parsed.ok) loaded.push(parsed.value);
    else issues.push(...parsed.issues);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: loaded };
}

async function walk(cwd: string, dir: string, add: (file: string) => void): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new RoleflowError(`${display(cwd, dir)}: cannot read folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Symlinked folders are not followed: a link loop cannot hang the walk.
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) await walk(cwd, path, add);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && FLOW_FILE.test(entry.name)) add(path);
  }
}

function display(cwd: string, absolute: string): string {
  return relative(cwd, absolute).split(sep).join('/');
}
