import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulator, project, TOKEN } from './roles-kit.js';

describe('a tenant that does not answer in time', () => {
  it('plan says so on stderr without --verbose, tries once more, and fails in one line', async () => {
    const em = await emulator({ latencyMs: 500 });
    const p = await project({
      'roleflow.config.yaml': `tenants:\n  slow:\n    base_url: ${em.baseUrl}\n    timeout: 100ms\n    retries: 4\n`,
      'roles/a.md': '---\nname: a\ndescription: d\n---\nc\n',
    });
    const r = await runCli(['plan', '--tenant', 'slow'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'GET /admin/roles/get: no response within 100ms; trying again (2/2)\n' +
        'error: GET /admin/roles/get: no response within 100 ms (after 2 attempts)\n',
    );
    expect(r.stdout).toBe('');
  });
});
