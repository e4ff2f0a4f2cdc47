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

/** The ```yaml blocks of a markdown file that are whole workflows (they have `on:` and `jobs:`). */
function workflowSnippets(file: string): { name: string; text: string }[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  return Array.from(text.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm), (m, i) => ({ name: `${file} (yaml block ${i + 1})`, text: m[1]! })).filter((s) =>
    /^on:/m.test(s.text) && /^jobs:/m.test(s.text),
  );
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

  // The README's "GitHub Action" section shows the example workflows users copy.
  it.each(['README.md'])('the workflows in %s pass actionlint, and are the example files', async (file) => {
    const snippets = workflowSnippets(file);
    expect(snippets.length).toBeGreaterThanOrEqual(4);
    const examples = yamlFilesIn('docs/workflows').map((f) => readFileSync(join(repoRoot, f), 'utf8'));
    for (const snippet of snippets) {
      expect(await lint(snippet.name, snippet.text)).toEqual([]);
      expect(examples, `${snippet.name} differs from every file in docs/workflows/`).toContain(snippet.text);
    }
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
