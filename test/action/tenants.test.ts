import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { actionTestbed, echoFlowFile, GITHUB_TOKEN, roleFile, visibleLog, type ActionRun } from './run-action.js';

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
  await mkdir(join(workspace, 'flows'), { recursive: true });
  await writeFile(join(workspace, 'flows', 'echo.yaml'), echoFlowFile([{ name: 'returns its inputs', key: 'greeting', value: 'hello' }]));
});
afterAll(async () => {
  for (const emulator of Object.values(emulators)) await emulator.close();
});

const ENV = { ROLEFLOW_TOKEN_STAGING: TOKENS.staging, ROLEFLOW_TOKEN_PRODUCTION: TOKENS.production };

/** The workspace's commit once it is a git checkout (the promotion's tests): GITHUB_SHA from then on. */
let head: string | undefined;

function action(inputs: Record<string, string>, event: 'pull_request' | 'push' = 'pull_request'): Promise<ActionRun> {
  return bed.run(inputs, { env: { ...ENV, ...(head !== undefined && { GITHUB_SHA: head }) }, event });
}

/** Commit everything in the workspace (a git checkout from the first call on, reports ignored): GITHUB_SHA is its HEAD. */
async function commitWorkspace(): Promise<void> {
  const git = (args: string[]) => promisify(execFile)('git', args, { cwd: bed.workspace });
  if (head === undefined) {
    await git(['init', '-q']);
    await writeFile(join(bed.workspace, '.gitignore'), '*.json\n.roleflow/\n');
  }
  await git(['add', '-A']);
  await git(['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'change']);
  head = (await git(['rev-parse', 'HEAD'])).stdout.trim();
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
    [{ command: 'test', tenant: 'staging\nproduction' }, 'command: test works on one tenant: several tenants (more than one name in "tenant") are for plan, apply and drift'],
    [{ command: 'merge', 'all-tenants': 'true' }, 'command: merge works on one tenant: several tenants (all-tenants) are for plan, apply and drift'],
    [{ command: 'plan', tenant: 'staging production' }, 'input "tenant": "staging production" is not a tenant name (one name per line)'],
    [{ command: 'plan', 'all-tenants': 'yes please' }, 'input "all-tenants" must be true or false'],
    [{ command: 'deploy' }, 'input "command" must be plan, apply, test, merge, promote, preview or drift, not "deploy"'],
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
    expect(applied.log).toMatch(/^::group::roleflow promote --from staging --to production --report reports\/staging\.json --auto-approve --json$/m);
    expect(applied.outputs['exitcode']).toBeDefined();
    expect(applied.outputs['promote-status']).toBeDefined();
    const planned = await action({ command: 'promote', from: 'staging', to: 'production', report: 'r.json', 'plan-file': 'promotion.json', args: '--verbose', comment: 'false' });
    expect(planned.log).toMatch(/^::group::roleflow promote --from staging --to production --report r\.json --out \S+\/promotion\.json --verbose$/m);
    expectNoToken(planned);
  });
});

describe('the Action, command: plan over several tenants', () => {
  const MARKER = '<!-- roleflow:plan:staging,production -->';

  it('keeps ONE sticky comment for the plans of all of them: a table of the tenants, then a section each', async () => {
    const first = await action({ command: 'plan', tenant: 'staging\nproduction' });
    expect(first.code, first.log).toBe(0);
    expect(first.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '2', updates: '0', deletes: '0', 'changed-tenants': 'staging\nproduction' });
    const saved = JSON.parse(readFileSync(first.outputs['plan-file']!, 'utf8')) as { tenants: { tenant: { name: string } }[] };
    expect(saved.tenants.map((plan) => plan.tenant.name)).toEqual(['staging', 'production']);
    // A notice per tenant with changes, named.
    expect(first.log).toContain('::notice title=roleflow plan for staging::Plan: 1 to create, 0 to update, 0 to delete.');
    expect(first.log).toContain('::notice title=roleflow plan for production::Plan: 1 to create, 0 to update, 0 to delete.');

    const second = await action({ command: 'plan', tenant: 'staging\nproduction' });
    expect(second.log).toContain('Updated the comment on pull request #42');
    const ours = bed.github.comments.filter((c) => c.body.startsWith(MARKER));
    expect(ours).toHaveLength(1);
    expect(bed.github.comments).toHaveLength(1);
    const body = ours[0]!.body;
    expect(body).toContain('## roleflow plan for 2 tenants');
    expect(body).toContain('| <code>staging</code> | 1 | 0 | 0 | none |');
    expect(body).toContain('| <code>production</code> | 1 | 0 | 0 | none |');
    // Then each tenant's plan, in the order given.
    expect(body.indexOf('### roleflow plan for <code>staging</code>')).toBeGreaterThan(body.indexOf('| <code>production</code> |'));
    expect(body.indexOf('### roleflow plan for <code>production</code>')).toBeGreaterThan(body.indexOf('### roleflow plan for <code>staging</code>'));
    expect(second.summary).toContain('## roleflow plan for 2 tenants');
    expectNoToken(second);
  });

  it('checks every tenant for drift with all-tenants and --detailed-exitcode, naming the ones that drifted', async () => {
    const applied = await action({ command: 'apply', tenant: 'staging' }, 'push');
    expect(applied.outputs, applied.log).toMatchObject({ exitcode: '0', creates: '1' });

    const drift = await action({ command: 'plan', 'all-tenants': 'true', args: '--detailed-exitcode' }, 'push');
    expect(drift.code).toBe(1);
    expect(drift.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true', creates: '1', 'changed-tenants': 'production' });
    expect(drift.log).toContain('::error::roleflow plan exited with code 2');
    expect(drift.summary).toMatch(/\| <code>staging<\/code> \| 0 \| 0 \| 0 \| none \|/);
    expect(drift.summary).toMatch(/\| <code>production<\/code> \| 1 \| 0 \| 0 \| none \|/);
    expectNoToken(drift);
  });

  it('annotates a broken role file once, not once per tenant, and comments the failure', async () => {
    await writeFile(join(bed.workspace, 'roles', 'broken.md'), '---\nname: broken\ndescription: [unclosed\n---\nx\n');
    try {
      const run = await action({ command: 'plan', tenant: 'staging\nproduction' });
      expect(run.code).toBe(1);
      expect(run.outputs['exitcode']).toBe('1');
      expect(run.outputs['creates']).toBeUndefined();
      expect(run.log.match(/^::error title=roleflow%3A invalid file,file=roles\/broken\.md,line=\d+/gm)).toHaveLength(1);
      const body = bed.github.comments.find((c) => c.body.startsWith(MARKER))!.body;
      expect(body).toContain('`roleflow plan` failed (exit code 1)');
    } finally {
      await rm(join(bed.workspace, 'roles', 'broken.md'));
    }
  });

  it('a tenant that cannot be reached does not hide the others: its row in the one comment says why, and the step fails', async () => {
    const configFile = join(bed.workspace, 'roleflow.config.yaml');
    const config = readFileSync(configFile, 'utf8');
    await writeFile(configFile, `${config}  gone:\n    base_url: http://127.0.0.1:9\n    token_env: ROLEFLOW_TOKEN_STAGING\n`);
    try {
      const run = await action({ command: 'plan', tenant: 'staging\ngone' });
      expect(run.code).toBe(1);
      expect(run.outputs['exitcode']).toBe('1');
      const body = bed.github.comments.find((c) => c.body.startsWith('<!-- roleflow:plan:staging,gone'))!.body;
      expect(body).toContain('## roleflow plan for 2 tenants');
      expect(body).toMatch(/\| <code>staging<\/code> \| \d+ \| \d+ \| \d+ \| none \|/);
      expect(body).toMatch(/\| <code>gone<\/code> \| – \| – \| – \| ⚠️ not planned: cannot reach http:\/\/127\.0\.0\.1:9/);
      expect(body).toContain('### roleflow plan for <code>staging</code>');
      expect(run.log).toMatch(/error: tenant "gone": cannot reach/);
      expectNoToken(run);
    } finally {
      await writeFile(configFile, config);
    }
  });

  it('applies a saved plan of several tenants tenant by tenant, with a section each (the plan step\'s tenant inputs kept)', async () => {
    await writeFile(join(bed.workspace, 'roles', 'billing.md'), roleFile('billing-agent', 'Billing', 'You handle invoices.'));
    const plan = await action({ command: 'plan', 'all-tenants': 'true', comment: 'false' }, 'push');
    expect(plan.outputs, plan.log).toMatchObject({ exitcode: '0', creates: '3', 'changed-tenants': 'staging\nproduction' });
    // A workflow's apply step often repeats the plan step's tenant inputs: the saved plan names its tenants.
    const apply = await action({ command: 'apply', 'plan-file': plan.outputs['plan-file']!, 'all-tenants': 'true' }, 'push');
    expect(apply.code, apply.log).toBe(0);
    expect(apply.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '3', updates: '0', deletes: '0', 'apply-status': 'applied' });
    expect(apply.log).toContain('::notice title=roleflow apply to staging::');
    expect(apply.log).toContain('::notice title=roleflow apply to production::');
    expect(apply.summary).toContain('## roleflow apply to 2 tenants');
    expect(apply.summary.indexOf('### roleflow apply to <code>production</code>')).toBeGreaterThan(apply.summary.indexOf('### roleflow apply to <code>staging</code>'));
    expect(apply.summary).toMatch(/\| ➕ created \| <code>billing-agent<\/code> \|/);

    const after = await action({ command: 'plan', tenant: 'staging\nproduction', args: '--detailed-exitcode', comment: 'false' }, 'push');
    expect(after.code, after.log).toBe(0);
    expect(after.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false', 'changed-tenants': '' });
    expectNoToken(apply);
  });
});

describe('the Action, command: promote', () => {
  const MARKER = '<!-- roleflow:promote:production -->';
  const promote = (inputs: Record<string, string> = {}): Promise<ActionRun> => action({ command: 'promote', from: 'staging', to: 'production', report: 'staging-report.json', ...inputs });
  /** What production would still get: a plan of it alone. */
  const productionCreates = async (): Promise<string | undefined> => (await action({ command: 'plan', tenant: 'production', comment: 'false' }, 'push')).outputs['creates'];

  /** The flow tests on staging, in the workspace as it is: staging-report.json is their report. */
  const testStaging = async (): Promise<void> => {
    const tested = await action({ command: 'test', tenant: 'staging', comment: 'false' }, 'push');
    expect(tested.outputs, tested.log).toMatchObject({ exitcode: '0', 'tests-passed': '1' });
    await writeFile(join(bed.workspace, 'staging-report.json'), readFileSync(tested.outputs['report-file']!));
  };

  it('refuses while staging does not match the files, then with a report of another commit, sending nothing', async () => {
    await commitWorkspace();
    await testStaging();
    await writeFile(join(bed.workspace, 'roles', 'promo.md'), roleFile('promo-agent', 'Promotions', 'You announce offers.'));
    await commitWorkspace();

    const unmatched = await promote();
    expect(unmatched.code).toBe(1);
    expect(unmatched.outputs).toMatchObject({ exitcode: '4', 'promote-status': 'refused', 'apply-status': 'refused', 'has-changes': 'false' });
    expect(unmatched.log).toContain('::error::roleflow promote exited with code 4');
    const body = bed.github.comments.find((c) => c.body.startsWith(MARKER))!.body;
    expect(body).toContain('### roleflow promote <code>staging</code> → <code>production</code>');
    expect(body).toContain('> Refused: nothing was applied.');
    expect(body).toMatch(/^> - .*staging/m);
    expect(await productionCreates()).toBe('1');

    const applied = await action({ command: 'apply', tenant: 'staging' }, 'push');
    expect(applied.outputs, applied.log).toMatchObject({ exitcode: '0', creates: '1' });
    const report = JSON.parse(readFileSync(join(bed.workspace, 'staging-report.json'), 'utf8')) as { commit?: string };
    await writeFile(join(bed.workspace, 'other-commit.json'), JSON.stringify({ ...report, commit: '0123456789abcdef0123456789abcdef01234567' }));
    const stale = await promote({ report: 'other-commit.json' });
    expect(stale.outputs).toMatchObject({ exitcode: '4', 'promote-status': 'refused' });
    expect(stale.summary).toMatch(/^> - .*0123456/m);
    expect(bed.github.comments.filter((c) => c.body.startsWith(MARKER))).toHaveLength(1);
    expect(await productionCreates()).toBe('1');
    expectNoToken(stale);

    // The report of the tests run before the new Role was applied to staging does not stand for it.
    const before = await promote();
    expect(before.outputs).toMatchObject({ exitcode: '4', 'promote-status': 'refused' });
    expect(before.summary).toMatch(/^> - the tests ran against other Roles than the role files give .*staging/m);
    expect(await productionCreates()).toBe('1');
    await testStaging();
  });

  it('with plan-file only plans the promotion and saves it', async () => {
    const planned = await promote({ 'plan-file': 'promotion.json', comment: 'false' });
    expect(planned.code, planned.log).toBe(0);
    expect(planned.outputs).toMatchObject({ exitcode: '0', 'promote-status': 'planned', 'plan-file': join(bed.workspace, 'promotion.json') });
    expect(JSON.parse(readFileSync(planned.outputs['plan-file']!, 'utf8'))).toMatchObject({ tenant: { name: 'production' }, summary: { create: 1 } });
    expect(planned.summary).toContain('📝 **Planned**');
    expect(await productionCreates()).toBe('1');
  });

  it('promotes to production with a passing report of this commit of staging, which matches the files', async () => {
    const run = await promote();
    expect(run.code, run.log).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'promote-status': 'promoted', 'apply-status': 'applied', 'has-changes': 'true', creates: '1' });
    expect(run.log).toContain('::notice title=roleflow promote to production::');
    const body = bed.github.comments.find((c) => c.body.startsWith(MARKER))!.body;
    expect(body).toMatch(/\| ➕ created \| <code>promo-agent<\/code> \|/);
    expect(await productionCreates()).toBe('0');
    expectNoToken(run);
  });
});
