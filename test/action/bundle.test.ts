import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
  it('is up to date with its sources, with every file beside it (rebuild: node action/build.mjs)', async () => {
    const fresh = join(temp.dir, 'index.js');
    await promisify(execFile)(process.execPath, [join(repoRoot, 'action', 'build.mjs'), '--outfile', fresh], { cwd: repoRoot });
    expect(readFileSync(fresh).length).toBeGreaterThan(100_000);
    const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).sort();
    const committedDir = dirname(bundlePath);
    expect(files(committedDir), 'action/dist/ holds other files than a fresh build: run `node action/build.mjs` and commit action/dist').toEqual(files(temp.dir));
    for (const file of files(temp.dir)) {
      const same = readFileSync(join(committedDir, file)).equals(readFileSync(join(temp.dir, file)));
      expect(same, `action/dist/${file} differs from a fresh build of action/src: run \`node action/build.mjs\` and commit it`).toBe(true);
    }
  });

  it('is ASCII alone, so Node reads it as one-byte text', () => {
    expect(/[^\x00-\x7f]/.exec(readFileSync(bundlePath, 'latin1'))).toBeNull();
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
