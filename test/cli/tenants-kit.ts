import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { emulator, project, TOKEN, type Project } from './roles-kit.js';

/** Two tenants on 127.0.0.1 — staging and production, each its own emulator — and a project configured for both. */
export interface TwoTenants {
  p: Project;
  staging: RunningEmulator;
  production: RunningEmulator;
  /** `roleflow ARGS` in the project, both tokens in the environment (plus `env`). */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
}

export async function twoTenants(
  files: Record<string, string>,
  opts: {
    config?: string;
    stagingRoles?: Parameters<typeof emulator>[1];
    productionRoles?: Parameters<typeof emulator>[1];
    /** Production's emulator options (faults, disabled forms). */
    productionOptions?: Parameters<typeof emulator>[0];
    /** Each tenant's own `vars:` in the config. */
    vars?: { staging?: Record<string, string>; production?: Record<string, string> };
  } = {},
): Promise<TwoTenants> {
  const staging = await emulator({}, opts.stagingRoles ?? []);
  const production = await emulator(opts.productionOptions ?? {}, opts.productionRoles ?? []);
  const varsOf = (vars: Record<string, string> | undefined) => (vars === undefined ? '' : `, vars: ${JSON.stringify(vars)}`);
  const config = [
    'tenants:',
    `  staging: { base_url: "${staging.baseUrl}", ws_url: "${staging.wsUrl}", token_env: ROLEFLOW_TOKEN_STAGING${varsOf(opts.vars?.staging)} }`,
    `  production: { base_url: "${production.baseUrl}", ws_url: "${production.wsUrl}", token_env: ROLEFLOW_TOKEN_PRODUCTION${varsOf(opts.vars?.production)} }`,
    opts.config ?? '',
  ].join('\n');
  const p = await project({ 'roleflow.config.yaml': `${config}\n`, ...files });
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { cwd: p.dir, env: { ROLEFLOW_TOKEN_STAGING: TOKEN, ROLEFLOW_TOKEN_PRODUCTION: TOKEN, ...env } });
  return { p, staging, production, cli };
}

/** Neither stream of `r` holds the token. */
export function noToken(r: CliResult): boolean {
  return !r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN);
}

const git = promisify(execFile);
const COMMITTER = ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid'];

/**
 * Commit everything in the project (a git repository from the first call on, whose `.gitignore`
 * keeps the reports and plans the tests write out of it, as a CI workspace would): its HEAD.
 */
export async function commitAll(p: Project, message = 'change'): Promise<string> {
  const opts = { cwd: p.dir };
  if (!existsSync(join(p.dir, '.git'))) {
    await git('git', ['init', '-q'], opts);
    if (!existsSync(join(p.dir, '.gitignore'))) await p.write('.gitignore', '*.json\n.roleflow/\n');
  }
  await git('git', ['add', '-A'], opts);
  await git('git', [...COMMITTER, 'commit', '-q', '--allow-empty', '-m', message], opts);
  return (await git('git', ['rev-parse', 'HEAD'], opts)).stdout.trim();
}
