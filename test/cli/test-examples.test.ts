import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { repoRoot, runCli, tempDir } from '../helpers/cli.js';

describe("the repository's example flow tests", () => {
  it('pass against the embedded tenant holding roles/, over both transports; examples/failing-flow.yaml fails', async () => {
    const { dir, cleanup } = await tempDir('roleflow-examples-');
    try {
      await cp(join(repoRoot, 'flows'), join(dir, 'flows'), { recursive: true });
      await cp(join(repoRoot, 'examples'), join(dir, 'examples'), { recursive: true });
      // The Roles of roles/ on the embedded tenant: the summarize flow runs with one; not_leaks reads them.
      await cp(join(repoRoot, 'roles'), join(dir, 'roles'), { recursive: true });
      expect(await runCli(['apply', '--auto-approve'], { cwd: dir })).toMatchObject({ code: 0 });
      const [passing, failing] = await Promise.all([
        runCli(['test', '--json', '--concurrency', '8'], { cwd: dir }),
        runCli(['test', 'examples/failing-flow.yaml', '--json'], { cwd: dir }),
      ]);
      expect(passing.stderr).toBe('');
      expect(passing.code).toBe(0);
      const report = JSON.parse(passing.stdout) as RunReport;
      expect(new Set(report.results.map((r) => r.transport))).toEqual(new Set(['https', 'ws']));
      expect(report.results.every((r) => r.status === 'pass')).toBe(true);
      expect(report.results.some((r) => r.repeat === 3 && r.across_repeats.some((a) => a.label.includes('p95')))).toBe(true);

      expect(failing.code).toBe(3);
      const failed = JSON.parse(failing.stdout) as RunReport;
      expect(failed.results.map((r) => [r.name, r.transport, r.status])).toEqual([
        ['expects the wrong summary', 'https', 'fail'],
        ['expects the wrong summary', 'ws', 'fail'],
        ['does not repeat its instructions', 'ws', 'fail'],
      ]);
      const leak = failed.results[2]!.repeats[0]!.assertions[0]!;
      expect(leak.message).toMatch(/^results: leaks \d+ characters of Role support-agent \(roles\/support-agent\.md:7\): /);
    } finally {
      await cleanup();
    }
  });
});
