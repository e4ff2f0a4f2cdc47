import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RoleflowError } from '../core/errors.js';
import { addTenantToConfig } from '../core/init/add-tenant.js';
import { editorSchemas, GITIGNORE_LINE, initFiles, tokenEnvFor, type InitOptions } from '../core/init/templates.js';
import { writeFileAtomic } from '../files/role-files.js';

/** What `init` did with one file: written anew, overwritten (`--force`), merged into, or left as it was. */
export type InitStatus = 'written' | 'overwritten' | 'merged' | 'left';

export interface InitStep {
  path: string;
  status: InitStatus;
  /** Why a file was left, or what a merge added. */
  note?: string;
  /** The config, when `--tenant` was given and it existed: the tenant added, there already, or not added. */
  tenant?: 'added' | 'present' | 'not-added';
}

const CONFIG = 'roleflow.config.yaml';

/**
 * `roleflow init`: writes the templates into `dir` (created if missing). A file that exists is
 * left as it is unless `force`; `.vscode/settings.json` and `.gitignore` are merged into, never
 * replaced: only the schema mappings and the `.roleflow/` line they lack are added.
 */
export async function initRepository(dir: string, options: InitOptions & { force: boolean }): Promise<InitStep[]> {
  const steps: InitStep[] = [];
  for (const file of initFiles(options)) {
    const abs = join(dir, file.path);
    const existing = await readIfThere(abs);
    if (existing !== undefined && !options.force && file.path === CONFIG && options.tenant !== undefined) {
      steps.push(await addTenant(abs, existing, options.tenant));
      continue;
    }
    if (existing !== undefined && !options.force) {
      steps.push({ path: file.path, status: 'left', note: existing === file.text ? 'already as init writes it' : 'exists (--force overwrites it)' });
      continue;
    }
    await writeFile(abs, file.text);
    steps.push({ path: file.path, status: existing === undefined ? 'written' : 'overwritten' });
  }
  steps.push(await mergeEditorSettings(dir, options.force));
  steps.push(await mergeGitignore(dir));
  return steps;
}

/** `--tenant` in a repository that has a config: the tenant is added to it, comments and all. */
async function addTenant(abs: string, text: string, tenant: NonNullable<InitOptions['tenant']>): Promise<InitStep> {
  const outcome = addTenantToConfig(text, tenant);
  if (!outcome.added) {
    return { path: CONFIG, status: 'left', note: `tenant "${tenant.name}" not added: ${outcome.reason}`, tenant: outcome.present ? 'present' : 'not-added' };
  }
  await writeFile(abs, outcome.text);
  return { path: CONFIG, status: 'merged', note: `added tenant "${tenant.name}", its token from ${tokenEnvFor(tenant.name)}`, tenant: 'added' };
}

const SETTINGS = '.vscode/settings.json';

async function mergeEditorSettings(dir: string, force: boolean): Promise<InitStep> {
  const abs = join(dir, SETTINGS);
  const text = await readIfThere(abs);
  let settings: Record<string, unknown> = {};
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // VS Code allows comments and trailing commas; rewriting such a file would lose them.
      return { path: SETTINGS, status: 'left', note: `not plain JSON (comments?): add "yaml.schemas" by hand (see the README's Editor setup)` };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { path: SETTINGS, status: 'left', note: 'not a JSON object' };
    }
    settings = parsed as Record<string, unknown>;
  }
  const current = settings['yaml.schemas'];
  const schemas = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  const added: string[] = [];
  for (const [schema, globs] of Object.entries(editorSchemas())) {
    if (schema in schemas && !force) continue;
    schemas[schema] = globs;
    added.push(schema.replace(/^.*\//, ''));
  }
  if (added.length === 0) return { path: SETTINGS, status: 'left', note: 'already maps the schemas' };
  await writeFile(abs, `${JSON.stringify({ ...settings, 'yaml.schemas': schemas }, null, 2)}\n`);
  return text === undefined ? { path: SETTINGS, status: 'written' } : { path: SETTINGS, status: 'merged', note: `added ${added.join(', ')}` };
}

async function mergeGitignore(dir: string): Promise<InitStep> {
  const abs = join(dir, '.gitignore');
  const text = await readIfThere(abs);
  if (text === undefined) {
    await writeFile(abs, `${GITIGNORE_LINE}\n`);
    return { path: '.gitignore', status: 'written' };
  }
  const ignored = text.split(/\r?\n/).some((line) => ['.roleflow', '.roleflow/', '/.roleflow', '/.roleflow/'].includes(line.trim()));
  if (ignored) return { path: '.gitignore', status: 'left', note: 'already ignores .roleflow/' };
  await writeFile(abs, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${GITIGNORE_LINE}\n`);
  return { path: '.gitignore', status: 'merged', note: `added ${GITIGNORE_LINE}` };
}

async function writeFile(abs: string, text: string): Promise<void> {
  await mkdir(dirname(abs), { recursive: true });
  await writeFileAtomic(abs, text);
}

async function readIfThere(abs: string): Promise<string | undefined> {
  try {
    return await readFile(abs, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new RoleflowError(`${abs} is a folder, where init writes a file`);
    throw new RoleflowError(`cannot read ${abs}: ${code ?? String(err)}`);
  }
}
