import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { RoleflowError, type Result } from '../../core/errors.js';
import { parseFlowTestFile, type FlowTestFile } from '../../core/flows/index.js';
import type { Issue } from '../../core/text/issues.js';
import type { TextFileKind } from '../../core/text/text-file.js';
import { loadSchema } from '../package-root.js';
import { attachSchemaFiles } from './schema-files.js';
import { attachSimilarFiles } from './similar-files.js';
import { dirExists, displayPath, listFilesUnder, loadTextFiles, sourceDir, type SourceDir, type SourceFile } from '../source-files.js';

/** Flow tests are small YAML files; anything this large is a mistake, refused before reading. */
export const FLOW_TEST_FILE: TextFileKind = { maxBytes: 4 * 1024 * 1024, noun: 'a flow test', holds: 'YAML text' };

/**
 * `*.yaml` and `*.yml`, in any case, except snapshot files (`*.snap.yaml`, in `__snapshots__/`)
 * and JSON Schemas written in YAML (`*.schema.yaml`), which may live beside the flow tests.
 */
export function isFlowFileName(name: string): boolean {
  return /\.ya?ml$/i.test(name) && !/\.(snap|schema)\.ya?ml$/i.test(name);
}

/** The flows folder's folder of judge cases (`roleflow test --judges`), which no flow test walk enters. */
export const JUDGES_DIR = '_judges';

export function isJudgesFolder(name: string): boolean {
  return name === JUDGES_DIR;
}

/** `--flows DIR` (validate), else `flows.dir` of the config, relative to the config file's folder. */
export function flowsDirOf(cwd: string, config: Config, flag: string | undefined): SourceDir {
  return sourceDir(cwd, config, flag, config.flows.dir, 'flows');
}

/**
 * The flow test files under `paths` (files as given, folders walked by `listFilesUnder` for
 * `*.yaml` / `*.yml`), sorted by name, each once. Their names are the files' names in every
 * report, so annotations point at them.
 */
export async function findFlowFiles(cwd: string, paths: readonly string[]): Promise<SourceFile[]> {
  const found = new Map<string, SourceFile>();
  for (const path of paths) {
    const abs = resolve(cwd, path);
    const info = await existingPath(cwd, path);
    if (info.isDirectory()) {
      const under = await listFilesUnder(cwd, abs, isFlowFileName, isJudgesFolder);
      if (under.length === 0) throw new RoleflowError(`${path}: no flow test files (*.yaml, *.yml) in this folder`);
      for (const source of under) found.set(source.file, source);
    } else {
      const file = displayPath(cwd, abs);
      found.set(file, { abs, file });
    }
  }
  return [...found.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** What is at PATH `path` (given on the command line); one that does not exist is an error naming it. */
export async function existingPath(cwd: string, path: string): Promise<Stats> {
  const info = await stat(resolve(cwd, path)).catch(() => undefined);
  if (!info) throw new RoleflowError(`${path}: no such file or folder`);
  return info;
}

/** `flows.dir` of the config, for `roleflow test` with no paths; said plainly when missing. */
export async function defaultFlowsDir(cwd: string, config: Config): Promise<string> {
  const dir = flowsDirOf(cwd, config, undefined);
  if (!(await dirExists(dir))) {
    throw new RoleflowError(`no flow tests: folder ${dir.display}/ not found (name files or folders, or set flows.dir in roleflow.config.yaml)`);
  }
  return dir.display;
}

/**
 * Read and parse every file (within `FLOW_TEST_FILE`'s limit, as text), and the schema files
 * their `schema` assertions name; any problem in any of them is returned, each at its `file:line:col`. `validate` and `test` both load through here.
 */
export async function loadFlowTestFiles(files: readonly SourceFile[]): Promise<Result<FlowTestFile[]>> {
  const { values, issues } = await parseFlowTestFiles(files);
  issues.push(...(await attachSchemaFiles(values, files)), ...(await attachSimilarFiles(values, files)));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: values };
}

/**
 * Read and parse every file, without reading the schema and similar files they name: what a flow
 * test file names even while one of those is invalid (`test --watch` keeps watching it).
 */
export function parseFlowTestFiles(files: readonly SourceFile[]): Promise<{ values: FlowTestFile[]; issues: Issue[] }> {
  const schema = loadSchema('flow-test');
  return loadTextFiles(files, FLOW_TEST_FILE, (text, file) => parseFlowTestFile(text, file, schema));
}
