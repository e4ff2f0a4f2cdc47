import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { repoRoot, runBin, tempDir } from '../helpers/cli.js';

const MISSING = 'Role "summarizer" not found on the tenant (used by step "llm"): apply the role files first (roleflow apply)';

describe('a Role change changes a flow test result against the embedded tenant', () => {
  it('fails before the Role is applied, passes once it is, and fails again once an edit of it is applied', async () => {
    const { dir, cleanup } = await tempDir('roleflow-role-flow-');
    try {
      await cp(join(repoRoot, 'roles', 'summarizer.md'), join(dir, 'roles', 'summarizer.md'));
      await cp(join(repoRoot, 'flows', 'summarize.yaml'), join(dir, 'flows', 'summarize.yaml'));
      const roleflow = (...args: string[]) => runBin(args, { cwd: dir });

      // The built-in summarize flow runs its llm step with the Role summarizer: not applied yet.
      const before = await roleflow('test');
      expect(before.code).toBe(3);
      expect(before.stdout).toContain(`step "llm" ended with status "failed": ${MISSING}`);
      expect(before.stdout).toContain(`has statusCode 500: ${MISSING}`);

      expect(await roleflow('apply', '--auto-approve')).toMatchObject({ code: 0 });
      const applied = await roleflow('test', '--json');
      expect(applied.code).toBe(0);
      expect((JSON.parse(applied.stdout) as RunReport).summary).toMatchObject({ failed: 0, skipped: 0 });

      const file = join(dir, 'roles', 'summarizer.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^description: .*$/m, 'description: One line per ticket'));
      // The file alone changes nothing on the tenant: the test passes until the edit is applied.
      expect(await roleflow('test', '--transport', 'ws', '--grep', 'refund')).toMatchObject({ code: 0 });
      expect(await roleflow('apply', '--auto-approve')).toMatchObject({ code: 0 });
      const edited = await roleflow('test', '--json');
      expect(edited.code).toBe(3);
      const report = JSON.parse(edited.stdout) as RunReport;
      expect(report.results.map((r) => [r.name, r.transport, r.status])).toEqual([
        ['summarizes a refund request', 'https', 'pass'],
        ['summarizes a refund request', 'ws', 'fail'],
        ['keeps the text it was given', 'ws', 'pass'],
      ]);
      const failed = report.results[1]!.repeats[0]!.assertions.find((a) => a.status === 'fail');
      expect(failed?.message).toBe('results[0].role: expected to equal "Summarizes support tickets for the agent taking over", got "One line per ticket"');
    } finally {
      await cleanup();
    }
  });
});
