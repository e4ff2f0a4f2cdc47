import { resolve } from 'node:path';
import { RoleflowError } from '../core/errors.js';
import { checkTenantUrl } from '../core/config/url-safety.js';
import { initRepository } from '../files/init-files.js';
import { ExitCode, type CommonOptions, type Ports } from './ports.js';

export interface InitOptions extends CommonOptions {
  /** DIR: where to write (default: the current folder). */
  dir?: string | undefined;
  /** `--tenant NAME --base-url URL [--ws-url URL]`: a tenant to configure beside the embedded one. */
  tenant?: string | undefined;
  baseUrl?: string | undefined;
  wsUrl?: string | undefined;
  /** `--preview-tenant NAME`: mark it `preview: true`. */
  previewTenant?: string | undefined;
  force: boolean;
  json: boolean;
}

const TENANT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * `roleflow init`: the templates written into DIR (see `initRepository`), every file listed with
 * what was done, then what to run next; with `--tenant`, the tenant added to an existing config.
 */
export async function init(options: InitOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  const dir = resolve(ports.cwd, options.dir ?? '.');
  const tenant = tenantOf(options);
  const preview = options.previewTenant;
  if (preview !== undefined && !TENANT_NAME.test(preview)) {
    throw new RoleflowError(`--preview-tenant "${preview}": a tenant name is letters, digits, - and _, starting with a letter`, 'usage');
  }
  const steps = await initRepository(dir, { force: options.force, ...tenant, ...(preview !== undefined && { previewTenant: preview }) });
  if (options.json) {
    output.json({ format_version: 1, dir, files: steps });
    return ExitCode.Ok;
  }
  const width = Math.max(...steps.map((s) => s.status.length));
  output.out(steps.map((s) => `${s.status.padEnd(width)}  ${s.path}${s.note === undefined ? '' : `  (${s.note})`}`).join('\n'));
  const config = steps.find((s) => s.tenant !== undefined);
  if (config?.tenant === 'added' && options.tenant === undefined) {
    output.err(`Marked "${preview}" preview: true in ${config.path}: pull requests are previewed there (roleflow preview --tenant ${preview} --base origin/main).`);
  } else if (config?.tenant === 'added') {
    // Only when it is so: the workflow init wrote for the embedded tenant is replaced, settings merged.
    const othersLeft = steps.every((s) => s === config || s.status === 'left');
    output.err(
      `Added tenant "${options.tenant}" to ${config.path}${othersLeft ? '; the other files were left as they are' : ''}. To test on one tenant and ` +
        'promote to the next, see roleflow\'s docs/environments.md and its workflows docs/workflows/roleflow-promote.yml and roleflow-environments.yml.',
    );
  } else if (config !== undefined) {
    const present = config.tenant === 'present';
    output.err(`${present ? 'note' : 'error'}: ${config.note}. To add a tenant by hand, write it under tenants: in ${config.path} (roleflow's docs/environments.md, "Adding a tenant").`);
    if (!present) return ExitCode.Error;
  }
  output.err('Next: npx roleflow validate && npx roleflow plan && npx roleflow apply && npx roleflow test');
  return ExitCode.Ok;
}

/** `--tenant`, `--base-url` and `--ws-url` checked: the tenant to configure, if any. */
function tenantOf(options: InitOptions): { tenant?: { name: string; baseUrl: string; wsUrl?: string } } {
  const { tenant, baseUrl, wsUrl } = options;
  if (tenant === undefined) {
    if (baseUrl !== undefined || wsUrl !== undefined) throw new RoleflowError('--base-url and --ws-url need --tenant NAME');
    return {};
  }
  if (!TENANT_NAME.test(tenant) || tenant === 'local') {
    throw new RoleflowError(`--tenant "${tenant}": a tenant name is letters, digits, - and _, starting with a letter, and not "local"`);
  }
  if (baseUrl === undefined) throw new RoleflowError('--tenant needs --base-url URL');
  for (const [flag, url, kind] of [['--base-url', baseUrl, 'http'], ['--ws-url', wsUrl, 'ws']] as const) {
    if (url !== undefined && !checkTenantUrl(url, kind).ok) {
      throw new RoleflowError(`${flag} ${url}: not a ${kind === 'http' ? 'https' : 'wss'}:// URL (plain ${kind}:// only to loopback)`);
    }
  }
  return { tenant: { name: tenant, baseUrl, ...(wsUrl === undefined ? {} : { wsUrl }) } };
}
