import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionTestbed, roleFile } from './run-action.js';

const ROLES = 5_000;

const bed = actionTestbed('roleflow-action-large-', async (workspace) => {
  const roles = join(workspace, 'roles');
  await mkdir(roles, { recursive: true });
  const body = 'You are one of many agents.\n'.repeat(20);
  for (let i = 0; i < ROLES; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, ROLES - i) }, (_, k) =>
        writeFile(join(roles, `agent-${String(i + k).padStart(4, '0')}.md`), roleFile(`agent-${i + k}`, `Agent number ${i + k}`, body)),
      ),
    );
  }
});

describe('the Action with a plan of 5,000 changed Roles', () => {
  it('posts a comment under 65,536 characters that says what it left out, and sets the outputs', async () => {
    const run = await bed.run({ command: 'plan' });
    expect(run.code, run.log.slice(-2000)).toBe(0);
    expect(run.outputs).toMatchObject({ exitcode: '0', 'has-changes': 'true', creates: String(ROLES), updates: '0', deletes: '0' });
    expect(bed.github.comments).toHaveLength(1);
    const body = bed.github.comments[0]!.body;
    expect(body.length).toBeLessThan(65_536);
    expect(body).toContain('Plan: 5000 to create, 0 to update, 0 to delete.');
    expect(body).toMatch(/… [\d,]+ more changes not shown; run `roleflow plan --tenant local` for the full plan\./);
    expect(body).toContain('<sub>`roleflow plan`');
    // The job summary has room for far more of the plan than the comment.
    expect(run.summary.length).toBeGreaterThan(body.length * 4);
    expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(1024 * 1024);
  }, 60_000);
});
