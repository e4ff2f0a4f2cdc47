import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers/cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function flowsFolder(text: string): Promise<string> {
  const { dir, cleanup } = await tempDir('roleflow-large-');
  cleanups.push(cleanup);
  await mkdir(join(dir, 'flows'));
  await writeFile(join(dir, 'flows', 'big.yaml'), text);
  return dir;
}

const HEAD = 'flow: f\ntransport: https\ntests:\n  - name: t\n    until: { steps: 1 }\n    expect:\n      outputs:\n        - path: a\n          schema:\n';

/**
 * The attack: a schema with a 200,000-value enum took `validate` over five minutes (ajv checks
 * `uniqueItems` pairwise), and a file with as many problems was quadratic too. Within the test's
 * timeout, only a linear check passes.
 */
describe('roleflow validate on large flow tests (the CLI as a process)', () => {
  it('checks a 200,000-value enum, and finds a duplicate value at its line', async () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `v${i}`);
    const ok = await flowsFolder(`${HEAD}            enum: [${values.join(', ')}]\n`);
    const valid = await runBin(['validate'], { cwd: ok });
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('1 flow test file are valid');

    const dup = await flowsFolder(`${HEAD}            enum: [${[...values, 'v7'].join(', ')}]\n`);
    const invalid = await runBin(['validate'], { cwd: dup });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^flows\/big\.yaml:10:\d+: tests\[0\]\.expect\.outputs\[0\]\.schema\.enum\[200000\]: invalid JSON schema: enum values 7 and 200000 are the same \("v7"\)$/m);
  });

  it('reports 100,000 problems of one file, one line each', async () => {
    const items = Array.from({ length: 100_000 }, (_, i) => `        - v${i}`).join('\n');
    const dir = await flowsFolder(`flow: f\ntransport: https\ntests:\n  - name: t\n    expect:\n      outputs:\n${items}\n`);
    const r = await runBin(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => /must be object, got string$/.test(l))).toHaveLength(100_000);
  });
});
