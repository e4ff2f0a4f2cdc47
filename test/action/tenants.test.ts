import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { actionTestbed, GITHUB_TOKEN, roleFile, visibleLog, type ActionRun } from './run-action.js';

/** Two tenants on 127.0.0.1, each an emulator with its own token. */
const TOKENS = { staging: 'rf_staging_TOKEN_1a2b3c4d5e6f', production: 'rf_production_TOKEN_6f5e4d3c2b1a' };
const emulators: Partial<Record<keyof typeof TOKENS, RunningEmulator>> = {};

const bed = actionTestbed('roleflow-action-tenants-', async (workspace) => {
  const config: string[] = ['default_tenant: staging', 'tenants:'];
  for (const name of ['staging', 'production'] as const) {
    const emulator = await startEmulator({ host: '127.0.0.1', port: 0, token: TOKENS[name] });
    emulators[name] = emulator;
    config.push(`  ${name}:`, `    base_url: ${emulator.baseUrl}`, `    ws_url: ${emulator.wsUrl}`, `    token_env: ROLEFLOW_TOKEN_${name.toUpperCase()}`);
  }
  await writeFile(join(workspace, 'roleflow.config.yaml'), `${config.join('\n')}\n`);
  await mkdir(join(workspace, 'roles'), { recursive: true });
  await writeFile(join(workspace, 'roles', 'support.md'), roleFile('support-agent', 'Tier-1 support', 'You are a support agent.'));
});
afterAll(async () => {
  for (const emulator of Object.values(emulators)) await emulator.close();
});

const ENV = { ROLEFLOW_TOKEN_STAGING: TOKENS.staging, ROLEFLOW_TOKEN_PRODUCTION: TOKENS.production };

function action(inputs: Record<string, string>, event: 'pull_request' | 'push' = 'pull_request'): Promise<ActionRun> {
  return bed.run(inputs, { env: ENV, event });
}

/** Neither tenant's token nor GitHub's in anything a user sees. */
function expectNoToken(run: ActionRun): void {
  const seen = [visibleLog(run.log), run.summary, JSON.stringify(run.outputs), ...bed.github.comments.map((c) => c.body)].join('\n');
  for (const token of [GITHUB_TOKEN, TOKENS.staging, TOKENS.production]) expect(seen).not.toContain(token);
}

describe('the Action: tenant inputs', () => {
  it.each([
    [{ command: 'promote', from: 'staging' }, 'command: promote needs the inputs "to", "report"'],
    [{ command: 'promote', from: 'staging', to: 'production', report: 'r.json', tenant: 'staging' }, 'command: promote takes its tenants from the "from" and "to" inputs'],
    [{ command: 'plan', to: 'production' }, 'input "to" is for command: promote, not plan'],
    [{ command: 'apply', tenant: 'staging\nproduction' }, 'command: apply works on one tenant: several tenants (more than one name in "tenant") are for plan'],
    [{ command: 'test', 'all-tenants': 'true' }, 'command: test works on one tenant: several tenants (all-tenants) are for plan'],
    [{ command: 'plan', tenant: 'staging production' }, 'input "tenant": "staging production" is not a tenant name (one name per line)'],
    [{ command: 'plan', 'all-tenants': 'yes please' }, 'input "all-tenants" must be true or false'],
    [{ command: 'deploy' }, 'input "command" must be plan, apply, test, merge or promote, not "deploy"'],
  ])('refuses %j in one line, running nothing', async (inputs, message) => {
    const run = await action(inputs);
    expect(run.code).toBe(1);
    expect(run.log).toContain(`::error::${message}`);
    expect(run.log).not.toContain('::group::roleflow');
    expect(bed.github.comments).toHaveLength(0);
    expectNoToken(run);
  });

  it('takes one name per line, blank lines and repeats ignored, as --tenant for each', async () => {
    const run = await action({ command: 'plan', tenant: '\n  staging\nproduction\n\nstaging\n', comment: 'false' });
    expect(run.log).toMatch(/^::group::roleflow plan --out \S+roleflow-plan-staging_production\.json --json --tenant staging --tenant production$/m);
    expectNoToken(run);
  });

  it('passes all-tenants as --all-tenants', async () => {
    const run = await action({ command: 'plan', 'all-tenants': 'true', comment: 'false' });
    expect(run.log).toMatch(/^::group::roleflow plan --out \S+roleflow-plan-all-tenants\.json --json --all-tenants$/m);
    expectNoToken(run);
  });

  it('runs promote with --auto-approve, or --out with plan-file, and the args input after', async () => {
    const applied = await action({ command: 'promote', from: 'staging', to: 'production', report: 'reports/staging.json', comment: 'false' });
    expect(applied.log).toMatch(/^::group::roleflow promote --from staging --to production --report reports\/staging\.json --auto-approve$/m);
    expect(applied.outputs['exitcode']).toBeDefined();
    expect(applied.outputs['promote-status']).toBeDefined();
    const planned = await action({ command: 'promote', from: 'staging', to: 'production', report: 'r.json', 'plan-file': 'promotion.json', args: '--verbose', comment: 'false' });
    expect(planned.log).toMatch(/^::group::roleflow promote --from staging --to production --report r\.json --out \S+\/promotion\.json --verbose$/m);
    expectNoToken(planned);
  });
});
