import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildCli } from '../../src/cli.js';
import { compileSchema } from '../../src/core/text/schema.js';
import { repoRoot } from '../helpers/cli.js';
import { loadOutputSchema, OUTPUT_SCHEMAS, outputProblems, schemaFiles, type OutputSchema } from '../helpers/output-schemas.js';
import { roleText } from './roles-kit.js';
import { twoTenants } from './tenants-kit.js';
import { GREET, runInProcess, suite } from './test-kit.js';

/** Each command that prints (or writes) JSON for scripts, and the schema of what it prints. */
const SCHEMA_OF: Record<string, OutputSchema | 'shards'> = {
  init: 'init',
  validate: 'validate',
  lint: 'lint',
  plan: 'plan',
  apply: 'apply',
  promote: 'apply',
  preview: 'preview',
  pull: 'pull',
  serve: 'serve',
  test: 'report',
  'report merge': 'report',
  'report compare': 'compare',
  history: 'history',
  'history show': 'history',
  rollback: 'apply',
  drift: 'drift',
  // A GitHub Actions matrix: no format_version, since GitHub reads every top-level key as a dimension.
  shards: 'shards',
};

/** `doc` as a command printed it: a format_version, and valid against its schema. */
function expectOutput(name: OutputSchema, text: string): Record<string, unknown> {
  const doc = JSON.parse(text) as Record<string, unknown>;
  expect(doc['format_version'], name).toBe(1);
  expect(outputProblems(name, doc)).toBe('');
  // A newer roleflow's new optional member does not make the document invalid.
  expect(outputProblems(name, { ...doc, added_later: { any: 'thing' } })).toBe('');
  return doc;
}

describe('every --json output has format_version and a schema', () => {
  it('every command with --json, --format json or a JSON --out has a schema in schemas/', () => {
    const files = schemaFiles();
    for (const d of buildCli({ colors: false }).definitions()) {
      const command = d.path.replace(/^roleflow /, '');
      const flags = d.options.map((o) => o.definition);
      if (!flags.some((f) => f === '--json' || f.startsWith('--format') || f.startsWith('--out'))) continue;
      expect(SCHEMA_OF[command], `${command} has no schema named in this test`).toBeDefined();
      expect(files).toContain(`${SCHEMA_OF[command]}.schema.json`);
    }
  });

  it.each(OUTPUT_SCHEMAS)('schemas/%s.schema.json requires format_version and closes no object to new members', (name) => {
    const schema = loadOutputSchema(name);
    expect(schema['required']).toContain('format_version');
    expect(JSON.stringify(schema)).not.toMatch(/"additionalProperties":false|"propertyNames"/);
  });

  it('validate, init, lint, plan, apply, history, drift, rollback, pull, test, report merge and report compare print documents their schemas accept', async () => {
    const s = await suite({ 'roles/greeter.md': roleText('greeter', 'greets', 'You greet people.'), 'flows/greet.yaml': GREET });
    const ok = async (args: string[], code = 0) => {
      const r = await s.run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      return r.stdout;
    };
    expectOutput('validate', await ok(['validate', '--json']));
    const init = expectOutput('init', await ok(['init', 'fresh', '--json']));
    expect((init['files'] as unknown[]).length).toBeGreaterThan(3);
    expectOutput('lint', await ok(['lint', '--json']));
    expectOutput('plan', await ok(['plan', '--json']));
    expectOutput('apply', await ok(['apply', '--auto-approve', '--json']));
    const history = expectOutput('history', await ok(['history', '--json']));
    const id = (history['records'] as { id: string }[])[0]!.id;
    expectOutput('history', await ok(['history', 'show', id, '--diff', '--json']));
    expectOutput('drift', await ok(['drift', '--json']));
    expectOutput('apply', await ok(['rollback', '--to', id, '--auto-approve', '--json']));
    const pulled = expectOutput('pull', await ok(['pull', '--json']));
    expect(pulled['summary']).toMatchObject({ unchanged: 1 });
    expectOutput('report', await ok(['test', '--json']));
    await ok(['test', '--reporter', 'json=a.json']);
    await ok(['test', '--reporter', 'json=b.json']);
    await ok(['report', 'merge', 'a.json', '--out', 'merged.json']);
    expectOutput('report', await s.read('merged.json'));
    expectOutput('compare', await ok(['report', 'compare', 'a.json', 'b.json', '--format', 'json']));
    const serve = await runInProcess(['serve', '--port', '0', '--json'], { cwd: s.dir, stopAtOnce: true });
    expect(serve.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expectOutput('serve', serve.stdout);
  }, 60_000);

  it('shards --json prints a matrix its schema accepts, and nothing GitHub would read as another dimension', async () => {
    const s = await suite({ 'flows/greet.yaml': GREET });
    expect((await s.run(['test', '--reporter', 'json=timings.json'])).code).toBe(0);
    const r = await s.run(['shards', '--timings', 'timings.json', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const matrix = JSON.parse(r.stdout) as unknown;
    const check = compileSchema(JSON.parse(await readFile(join(repoRoot, 'schemas', 'shards.schema.json'), 'utf8')) as object);
    expect(check(matrix), JSON.stringify(check.errors)).toBe(true);
    expect(Object.keys(matrix as object)).toEqual(['include']);
    expect((matrix as { include: unknown[] }).include.length).toBeGreaterThan(0);
  });

  it('plan and apply over two tenants print one document each that its schema accepts', async () => {
    const t = await twoTenants({ 'roles/a.md': roleText('a', 'first', 'You are A.') });
    const plan = await t.cli(['plan', '--all-tenants', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect((expectOutput('plan', plan.stdout)['tenants'] as unknown[]).length).toBe(2);
    const apply = await t.cli(['apply', '--all-tenants', '--auto-approve', '--json']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(expectOutput('apply', apply.stdout)).toMatchObject({ tenants: [{ status: 'applied' }, { status: 'applied' }], not_attempted: [] });
  });
});
