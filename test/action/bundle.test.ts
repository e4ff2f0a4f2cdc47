import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bundlePath, repoRoot, tempDir } from './run-action.js';

let temp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  temp = await tempDir('roleflow-action-bundle-');
});
afterAll(async () => {
  await temp.cleanup();
});

interface ActionYml {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
}

const actionYml = parse(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as ActionYml;
const sources = readdirSync(join(repoRoot, 'action', 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(join(repoRoot, 'action', 'src', f), 'utf8'))
  .join('\n');

describe('the Action bundle', () => {
  it('is up to date with its sources, its validators too (rebuild: node action/build.mjs)', async () => {
    const fresh = join(temp.dir, 'index.js');
    await promisify(execFile)(process.execPath, [join(repoRoot, 'action', 'build.mjs'), '--outfile', fresh], { cwd: repoRoot });
    const committed = readFileSync(bundlePath);
    const rebuilt = readFileSync(fresh);
    expect(rebuilt.length).toBeGreaterThan(100_000);
    expect(committed.equals(rebuilt), 'action/dist/index.js differs from a fresh build of action/src: run `node action/build.mjs` and commit it').toBe(true);
    const validators = (dir: string) => readdirSync(join(dir, 'validators')).sort();
    const committedDir = dirname(bundlePath);
    expect(validators(committedDir), 'action/dist/validators/ lists other files than a fresh build').toEqual(validators(temp.dir));
    for (const file of validators(temp.dir)) {
      const same = readFileSync(join(committedDir, 'validators', file)).equals(readFileSync(join(temp.dir, 'validators', file)));
      expect(same, `action/dist/validators/${file} differs from a fresh build: run \`node action/build.mjs\` and commit it`).toBe(true);
    }
  });

  it('is what action.yml runs, on node24', () => {
    expect(actionYml.runs).toEqual({ using: 'node24', main: 'action/dist/index.js' });
  });

  it('declares every input the code reads and every output it sets, each described', () => {
    const read = new Set(Array.from(sources.matchAll(/get(?:Boolean)?Input\('([a-z-]+)'/g), (m) => m[1]!));
    const set = new Set(Array.from(sources.matchAll(/setOutput\('([a-z-]+)'/g), (m) => m[1]!));
    expect([...read].sort()).toEqual(Object.keys(actionYml.inputs).sort());
    expect([...set].sort()).toEqual(Object.keys(actionYml.outputs).sort());
    for (const [name, spec] of [...Object.entries(actionYml.inputs), ...Object.entries(actionYml.outputs)]) {
      expect(spec.description.length, name).toBeGreaterThan(20);
    }
    expect(actionYml.inputs['github-token']?.default).toBe('${{ github.token }}');
    expect(actionYml.inputs['comment']?.default).toBe('true');
    // The Action's page documents each of them.
    const docs = readFileSync(join(repoRoot, 'docs/github-action.md'), 'utf8');
    for (const name of [...Object.keys(actionYml.inputs), ...Object.keys(actionYml.outputs)]) expect(docs, name).toContain(`\`${name}\``);
    for (const output of ['exitcode', 'has-changes', 'creates', 'updates', 'deletes', 'plan-file', 'tests-passed', 'tests-failed']) {
      expect(actionYml.outputs).toHaveProperty(output);
    }
  });
});
