import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../helpers/actionlint.js';
import { repoRoot } from './run-action.js';

const WORKFLOW_DIRS = ['.github/workflows', 'docs/workflows'];

function yamlFilesIn(dir: string): string[] {
  return readdirSync(join(repoRoot, dir))
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => `${dir}/${name}`);
}

describe('workflow files', () => {
  const files = WORKFLOW_DIRS.flatMap(yamlFilesIn);

  it('include the project CI, the Action run on this repository, and the examples users copy', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/roleflow-self.yml',
        'docs/workflows/roleflow-pull-request.yml',
        'docs/workflows/roleflow-apply.yml',
        'docs/workflows/roleflow-drift.yml',
        'docs/workflows/roleflow-sharded-tests.yml',
        'docs/workflows/roleflow-compare.yml',
        'docs/workflows/roleflow-environments.yml',
        'docs/workflows/roleflow-promote.yml',
      ]),
    );
  });

  it.each(files)('%s passes actionlint', async (file) => {
    expect(await lint(file, readFileSync(join(repoRoot, file), 'utf8'))).toEqual([]);
  });

  it('lint problems are found (the linter is not a no-op)', async () => {
    const problems = await lint('broken.yml', 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.pull_request.title }}\n        if: ${{ matrix.x }}\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(await lint('bad.yml', 'on: push\njobs:\n  a:\n    steps:\n      - run: echo "a: b"\n')).toEqual([expect.stringMatching(/invalid YAML/)]);
  });
});

describe('the workflow linter', () => {
  it('is a current actionlint: knows today\'s runner labels and still finds mistakes', async () => {
    const ok = 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo hi\n';
    expect(await lint('ok.yml', ok)).toEqual([]);
    const wrong = 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    stepz: []\n    steps:\n      - run: echo ${{ nope.x }}\n';
    const problems = await lint('wrong.yml', wrong);
    expect(problems).toEqual([expect.stringContaining('wrong.yml:6:5: unexpected key "stepz"'), expect.stringContaining('wrong.yml:8:23: undefined variable "nope"')]);
  });
});
