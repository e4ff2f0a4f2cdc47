import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RoleflowError } from '../core/errors.js';
import { addTenantToConfig, configuredPreviewTenant, markPreviewTenant } from '../core/init/add-tenant.js';
import { editorSchemas, embeddedWorkflows, GITIGNORE_LINES, initFiles, tokenEnvFor, type InitOptions } from '../core/init/templates.js';
import { writeFileAtomic } from './role-files.js';

/** What `init` did with one file: written anew, overwritten (`--force`), merged into, or left as it was. */
export type InitStatus = 'written' | 'overwritten' | 'merged' | 'left';

export interface InitStep {
  path: string;
  status: InitStatus;
  /** Why a file was left, or what a merge added. */
  note?: string;
  /** The config, when `--tenant` or `--preview-tenant` was given and it existed: the tenant added (or marked), there already, or not. */
  tenant?: 'added' | 'present' | 'not-added';
}

const CONFIG = 'roleflow.config.yaml';
const WORKFLOW = '.github/workflows/roleflow.yml';

/**
 * `roleflow init`: writes the templates into `dir` (created if missing). A file that exists is
 * left as it is unless `force`; `.vscode/settings.json` and `.gitignore` are merged into, never
 * replaced: only the schema mappings and the `.roleflow/` line they lack are added.
 */
export async function initRepository(dir: string, given: InitOptions & { force: boolean }): Promise<InitStep[]> {
  const steps: InitStep[] = [];
  const config = given.force ? undefined : await readIfThere(join(dir, CONFIG));
  const marks = given.previewTenant;
  if (marks !== undefined && marks !== 'local' && marks !== given.tenant?.name && config === undefined) {
    throw new RoleflowError(`--preview-tenant ${marks}: there is no config with tenant "${marks}" yet: add it in the same run with --tenant ${marks} --base-url URL (or preview on the embedded tenant: --preview-tenant local)`, 'usage');
  }
  // A config that marks a preview tenant keeps its preview job in the workflow written for it.
  const previewTenant = given.previewTenant ?? (config === undefined ? undefined : configuredPreviewTenant(config));
  const options = { ...given, ...(previewTenant !== undefined && { previewTenant }) };
  for (const file of initFiles(options)) {
    const abs = join(dir, file.path);
    const existing = await readIfThere(abs);
    if (existing !== undefined && !options.force && file.path === CONFIG && (options.tenant !== undefined || given.previewTenant !== undefined)) {
      steps.push(await editConfig(abs, existing, options.tenant, given.previewTenant));
      continue;
    }
    // The embedded tenant's workflow, as init wrote it, gives way to the one for the tenant now configured.
    if (existing !== undefined && !options.force && file.path === WORKFLOW && (options.tenant !== undefined || given.previewTenant !== undefined) && embeddedWorkflows().includes(existing) && existing !== file.text) {
      await writeFile(abs, file.text);
      steps.push({ path: file.path, status: 'overwritten', note: `init's workflow for the embedded tenant, unedited: replaced by the one for ${options.tenant === undefined ? `preview tenant "${previewTenant}"` : `tenant "${options.tenant.name}"`}` });
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

/**
 * `--tenant` and `--preview-tenant` in a repository that has a config: the tenant is added to it,
 * or marked `preview: true`, comments and all.
 */
async function editConfig(abs: string, text: string, tenant: InitOptions['tenant'], preview: string | undefined): Promise<InitStep> {
  let next = text;
  const notes: string[] = [];
  if (tenant !== undefined) {
    const outcome = addTenantToConfig(text, tenant, preview === tenant.name);
    if (!outcome.added) {
      return { path: CONFIG, status: 'left', note: `tenant "${tenant.name}" not added: ${outcome.reason}`, tenant: outcome.present ? 'present' : 'not-added' };
    }
    next = outcome.text;
    notes.push(`added tenant "${tenant.name}"${preview === tenant.name ? ' (preview: true)' : ''}, its token from ${tokenEnvFor(tenant.name)}`);
  }
  if (preview !== undefined && preview !== tenant?.name) {
    const marked = markPreviewTenant(next, preview);
    if (!marked.marked && !marked.already) return { path: CONFIG, status: 'left', note: `not marked as the preview tenant: ${marked.reason}`, tenant: 'not-added' };
    if (marked.marked) {
      next = marked.text;
      notes.push(`marked "${preview}" preview: true`);
    }
  }
  if (next === text) return { path: CONFIG, status: 'left', note: `"${preview}" is marked preview: true already`, tenant: 'present' };
  await writeFile(abs, next);
  return { path: CONFIG, status: 'merged', note: notes.join('; '), tenant: 'added' };
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
      return { path: SETTINGS, status: 'left', note: `not plain JSON (comments?): add "yaml.schemas" by hand (see roleflow's docs/configuration.md, "Editor setup")` };
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

/** `.gitignore` gets each of `GITIGNORE_LINES` it does not ignore yet (as `x`, `x/`, `/x` or `/x/`). */
async function mergeGitignore(dir: string): Promise<InitStep> {
  const abs = join(dir, '.gitignore');
  const text = await readIfThere(abs);
  if (text === undefined) {
    await writeFile(abs, `${GITIGNORE_LINES.join('\n')}\n`);
    return { path: '.gitignore', status: 'written' };
  }
  const lines = new Set(text.split(/\r?\n/).map((line) => line.trim().replace(/^\//, '').replace(/\/$/, '')));
  const missing = GITIGNORE_LINES.filter((entry) => !lines.has(entry.replace(/\/$/, '')));
  if (missing.length === 0) return { path: '.gitignore', status: 'left', note: `already ignores ${GITIGNORE_LINES.join(' and ')}` };
  await writeFile(abs, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  return { path: '.gitignore', status: 'merged', note: `added ${missing.join(', ')}` };
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
