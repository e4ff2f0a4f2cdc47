import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTestbed, roleFile, type ActionRun } from './run-action.js';

const bed = actionTestbed('roleflow-action-apply-', async () => {
  await mkdir(join(bed.workspace, 'roles'), { recursive: true });
  await writeFile(join(bed.workspace, 'roles', 'support.md'), roleFile('support-agent', 'Tier-1 support', 'You are a support agent.'));
  await writeFile(join(bed.workspace, 'roles', 'billing.md'), roleFile('billing-agent', 'Billing', 'You handle invoices.'));
});

function action(inputs: Record<string, string>, event: 'push' | 'pull_request' = 'push'): Promise<ActionRun> {
  return bed.run(inputs, { event });
}

describe('the Action, command: apply', () => {
  it('applies a fresh plan on push, with per-Role results in the log, the outputs and the summary', async () => {
    const run = await action({ command: 'apply' });
    expect(run.code, run.log).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: '2', updates: '0', deletes: '0', 'apply-status': 'applied' });
    expect(run.log).toMatch(/^\+ created support-agent/m);
    expect(run.log).toContain('Apply complete: 2 created, 0 updated, 0 deleted.');
    expect(run.log).toContain('::notice title=roleflow apply to local::Apply complete: 2 created, 0 updated, 0 deleted.\n');
    expect(run.summary).toMatch(/\| ➕ created \| <code>billing-agent<\/code> \|/);
    expect(bed.github.requests).toHaveLength(0);

    const after = await action({ command: 'plan' }, 'push');
    expect(after.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'false', creates: '0' });
  });

  it('carries out exactly a saved plan, and refuses one the tenant has moved past (exit 4 fails the step)', async () => {
    await writeFile(join(bed.workspace, 'roles', 'support.md'), roleFile('support-agent', 'Tier-1 and tier-2 support', 'You are a support agent.'));
    const plan = await action({ command: 'plan', 'plan-file': 'reviewed-plan.json' });
    expect(plan.outputs).toMatchObject({ updates: '1', 'plan-file': join(bed.workspace, 'reviewed-plan.json') });

    const applied = await action({ command: 'apply', 'plan-file': 'reviewed-plan.json' });
    expect(applied.code, applied.log).toBe(0);
    expect(applied.outputs).toMatchObject({ exitcode: '0', updates: '1', 'apply-status': 'applied' });

    // The same plan again: the Role it updated is no longer as the plan saw it.
    const stale = await action({ command: 'apply', 'plan-file': 'reviewed-plan.json' });
    expect(stale.code).toBe(1);
    expect(stale.outputs).toMatchObject({ exitcode: '4', 'apply-status': 'refused' });
    expect(stale.summary).toContain('Refused: nothing was applied.');
    expect(stale.log).toContain('::error::roleflow apply exited with code 4');
  });
});
