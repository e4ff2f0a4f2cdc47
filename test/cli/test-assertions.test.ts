import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { RunReport } from '../../src/report/model.js';
import { suite } from './test-kit.js';

const validReport = compileSchema(loadSchema('report'));

/** `echo` returns its inputs as its one result: what is sent is what the assertions see. */
const echoTest = (name: string, inputs: string, outputs: string, transport = 'ws') => `flow: echo
transport: ${transport}
tests:
  - name: ${name}
    inputs: ${inputs}
    until: { messages: 1 }
    expect:
      outputs:
${outputs}`;

const SNAPSHOT = (ticket: string, name = 'labels a ticket') =>
  echoTest(name, `{ label: support, ticket: "${ticket}", execution_id: "${ticket}-run" }`, '        - { path: "results[0]", snapshot: true, ignore: [execution_id] }\n');

const SNAP_FILE = 'flows/__snapshots__/label.yaml.snap.yaml';

const ROLE = `---
name: support-agent
description: Tier-1 support
---
# Support agent

You are a tier-1 support agent for an online store. You answer customers politely, briefly and
accurately, in the language they write in.
`;

const report = (stdout: string): RunReport => JSON.parse(stdout) as RunReport;

describe('snapshot assertions', () => {
  it('writes a missing snapshot and passes, then matches it, then shows a diff when the output changes', async () => {
    const s = await suite({ 'flows/label.yaml': SNAPSHOT('T-1') });
    const first = await s.test();
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(`${SNAP_FILE}: 1 snapshot written\n`);
    const stored = await s.read(SNAP_FILE);
    expect(stored).toContain('labels a ticket [ws] results[0]:\n  label: support\n  ticket: T-1\n');
    expect(stored).not.toContain('execution_id');

    // The snapshot file beside the flow tests is not taken for one.
    expect((await s.run(['validate'])).code).toBe(0);
    const again = await s.test();
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(await s.read(SNAP_FILE)).toBe(stored);

    await s.write('flows/label.yaml', SNAPSHOT('T-2'));
    const changed = await s.test(['--reporter', 'console', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'github=gh.txt']);
    expect(changed.code).toBe(3);
    expect(changed.stdout).toContain(
      '✗ results[0]: differs from its snapshot (`roleflow test -u` accepts the new value) (flows/label.yaml:9:11)\n' +
        '      --- snapshot\n      +++ received\n      @@ -1,2 +1,2 @@\n       label: support\n      -ticket: T-1\n      +ticket: T-2\n',
    );
    const json = JSON.parse(await s.read('roleflow-report.json')) as RunReport;
    expect(validReport(json)).toBe(true);
    expect(json.results[0]!.repeats[0]!.assertions[0]!.diff).toContain('-ticket: T-1\n+ticket: T-2');
    expect(await s.read('roleflow-junit.xml')).toContain('flows/label.yaml:9:11: results[0]: differs from its snapshot');
    expect(await s.read('roleflow-junit.xml')).toContain('-ticket: T-1\n+ticket: T-2');
    expect(changed.stdout).toContain('::error file=flows/label.yaml,line=9,col=11,');
    expect(changed.stdout).toContain('%0A-ticket: T-1%0A+ticket: T-2');
    expect(await s.read(SNAP_FILE)).toBe(stored);

    const updated = await s.test(['-u']);
    expect(updated.code).toBe(0);
    expect(updated.stderr).toBe(`${SNAP_FILE}: 1 snapshot written\n`);
    expect(await s.read(SNAP_FILE)).toContain('ticket: T-2');
  });

  it('fails a missing snapshot when CI is set, writing nothing; -u is refused under CI unless --ci-update', async () => {
    const s = await suite({ 'flows/label.yaml': SNAPSHOT('T-1') });
    const ci = await s.test(['--json'], { env: { CI: 'true' } });
    expect(ci.code).toBe(3);
    const a = report(ci.stdout).results[0]!.repeats[0]!.assertions[0]!;
    expect(a).toMatchObject({ status: 'fail', line: 9, message: 'results[0]: no snapshot is stored and CI is set: run `roleflow test -u` and commit __snapshots__/' });
    expect(existsSync(join(s.dir, SNAP_FILE))).toBe(false);

    const u = await s.test(['-u'], { env: { CI: 'true' } });
    expect(u.code).toBe(1);
    expect(u.stderr).toMatch(/^error: -u \(--update-snapshots\) is refused under CI: .* or add --ci-update if this job is meant to write them\n$/);
    expect(u.stdout).toBe('');
    expect(existsSync(join(s.dir, SNAP_FILE))).toBe(false);

    const allowed = await s.test(['-u', '--ci-update'], { env: { CI: 'true' } });
    expect(allowed.code).toBe(0);
    expect(existsSync(join(s.dir, SNAP_FILE))).toBe(true);
  });

  it('refuses a __snapshots__/ that a symbolic link leads out of the repository, reading and writing nothing there', async () => {
    const s = await suite({ 'flows/label.yaml': SNAPSHOT('T-1'), '.git/HEAD': 'ref: refs/heads/main\n' });
    const outside = await mkdtemp(join(tmpdir(), 'roleflow-outside-'));
    await symlink(outside, join(s.dir, 'flows', '__snapshots__'));
    for (const args of [[], ['-u']]) {
      const r = await s.test(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^flows\/__snapshots__\/label\.yaml\.snap\.yaml:1:1: flows\/__snapshots__\/ is a symbolic link to .*roleflow-outside-\w+, outside the repository \(.*\): snapshots are neither read nor written through it$/m);
    }
    expect(await readdir(outside)).toEqual([]);
    await rm(outside, { recursive: true });

    // A link within the repository is followed.
    const inside = await suite({ 'flows/label.yaml': SNAPSHOT('T-1'), '.git/HEAD': 'ref: refs/heads/main\n', 'stored/.keep': '' });
    await symlink(join(inside.dir, 'stored'), join(inside.dir, 'flows', '__snapshots__'));
    expect((await inside.test([])).code).toBe(0);
    expect(existsSync(join(inside.dir, 'stored', 'label.yaml.snap.yaml'))).toBe(true);
  });

  it('reports obsolete snapshots, and -u removes them', async () => {
    const s = await suite({ 'flows/label.yaml': SNAPSHOT('T-1') });
    expect((await s.test()).code).toBe(0);
    await s.write('flows/label.yaml', SNAPSHOT('T-1', 'labels a ticket again'));
    const renamed = await s.test();
    expect(renamed.code).toBe(0);
    expect(renamed.stderr).toBe(
      `${SNAP_FILE}: 1 snapshot written\n${SNAP_FILE}: obsolete snapshot "labels a ticket [ws] results[0]" (no test writes it; roleflow test -u removes it)\n`,
    );
    expect(await s.read(SNAP_FILE)).toContain('labels a ticket [ws] results[0]:');

    const cleaned = await s.test(['--update-snapshots']);
    expect(cleaned.stderr).toBe(`${SNAP_FILE}: 1 obsolete snapshot removed\n`);
    const text = await s.read(SNAP_FILE);
    expect(text).not.toContain('labels a ticket [ws]');
    expect(text).toContain('labels a ticket again [ws] results[0]:');
  });

  it('compares every repeat: with the first as the snapshot is written, then with the stored one', async () => {
    // (A repeat that differs from the first fails: see the core tests; echo's repeats are alike.)
    const s = await suite({ 'flows/label.yaml': SNAPSHOT('T-1').replace('until:', 'repeat: 3\n    until:') });
    const r = await s.test(['--json']);
    expect(r.code).toBe(0);
    const repeats = report(r.stdout).results[0]!.repeats.map((x) => x.assertions[0]!.message);
    expect(repeats).toEqual(['results[0]: snapshot written', 'results[0]: snapshot written', 'results[0]: snapshot written']);
    const next = await s.test(['--json']);
    expect(report(next.stdout).results[0]!.repeats.map((x) => x.assertions[0]!.message)).toEqual(Array(3).fill('results[0]: matches its snapshot'));
  });
});

describe('snapshot assertions and secrets', () => {
  it('never writes a secret into a snapshot file: it is masked there as in every report, and still matches', async () => {
    const flow = `flow: echo
transport: ws
secrets: [LABEL_KEY]
tests:
  - name: keyed
    inputs: { key: "\${env:LABEL_KEY}", label: support }
    until: { messages: 1 }
    expect:
      outputs:
        - { path: "results[0]", snapshot: true }
`;
    const s = await suite({ 'flows/keyed.yaml': flow });
    const env = { LABEL_KEY: 'sk-very-secret-value' };
    expect((await s.test([], { env })).code).toBe(0);
    const stored = await s.read('flows/__snapshots__/keyed.yaml.snap.yaml');
    expect(stored).not.toContain('sk-very-secret-value');
    expect(stored).toContain('label: support');
    const again = await s.test([], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
  });
});

describe('schema assertions', () => {
  const files = {
    'flows/schemas/label.schema.yaml': 'type: object\nrequired: [label]\nproperties:\n  label: { $ref: "#/definitions/label" }\ndefinitions:\n  label: { enum: [support, billing] }\n',
    'flows/inline.yaml': echoTest('inline', '{ label: sales }', '        - path: "results[0]"\n          schema: { properties: { label: { enum: [support, billing] } } }\n'),
    'flows/file.yaml': echoTest('from a file', '{ label: billing }', '        - { path: "results[0]", schema: ./schemas/label.schema.yaml }\n'),
  };

  it('checks a value against an inline schema or a YAML schema file (its $refs resolved), failing at the line with the path and keyword', async () => {
    const s = await suite(files);
    const r = await s.test();
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('✓ flows/file.yaml > from a file [ws]');
    expect(r.stdout).toContain('✗ results[0].label: must be one of support, billing (flows/inline.yaml:9:11)');
  });

  it('is refused by validate when an inline schema is malformed, or a schema file is missing', async () => {
    const s = await suite({
      'flows/bad.yaml': echoTest('bad', '{ a: b }', '        - path: results\n          schema: { type: objekt }\n'),
      'flows/missing.yaml': echoTest('missing', '{ a: b }', '        - { path: results, schema: ./nowhere.json }\n'),
      'flows/broken.yaml': echoTest('broken', '{ a: b }', '        - { path: results, schema: ./broken.json }\n'),
      'flows/broken.json': '{ "type": "object", ',
    });
    const r = await s.run(['validate', '--flows', 'flows']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('flows/bad.yaml:10:27: tests[0].expect.outputs[0].schema.type: must be one of "array", "boolean"');
    expect(r.stderr).toContain('flows/missing.yaml:9:11: schema ./nowhere.json: cannot read the file (ENOENT)');
    expect(r.stderr).toMatch(/flows\/broken\.yaml:9:11: schema \.\/broken\.json: line 1, column \d+: /);
    expect((await s.test()).code).toBe(1);
  });
});

describe('not_leaks assertions', () => {
  const leaking = echoTest(
    'leaks',
    '{ reply: "Sure. You answer customers politely, briefly and accurately, in the language they write in. Bye" }',
    '        - { path: results, not_leaks: support-agent }\n        - { path: results, not_leaks: "*", min_chars: 200 }\n',
  );
  const clean = echoTest('does not leak', '{ reply: "You are a support agent, politely." }', '        - { path: results, not_leaks: "*" }\n');

  it('fails an output that echoes part of a Role, naming the Role file and line, and passes one that does not', async () => {
    const s = await suite({ 'roles/support-agent.md': ROLE, 'flows/leak.yaml': leaking, 'flows/clean.yaml': clean });
    const r = await s.test(['--json']);
    expect(r.code).toBe(3);
    const results = report(r.stdout).results;
    const leak = results.find((x) => x.name === 'leaks')!.repeats[0]!.assertions;
    expect(leak.map((a) => a.status)).toEqual(['fail', 'pass']);
    expect(leak[0]!.message).toBe(
      'results: leaks 89 characters of Role support-agent (roles/support-agent.md:7): "re. You answer customers politely, b…language they write in."',
    );
    expect(leak[0]!.line).toBe(9);
    expect(results.find((x) => x.name === 'does not leak')!.status).toBe('pass');
  });

  it('looks for a Role as rendered for the tenant: the value of ${vars.product} leaks, at the line of its reference', async () => {
    const product = 'Acme Cloud Enterprise Edition for Retail Banking';
    const role = ROLE.replace('You are a tier-1 support agent for an online store.', 'You are the assistant of ${vars.product}.');
    const flow = echoTest('leaks the product', `{ reply: "Hello, I am the assistant of ${product}. Bye" }`, '        - { path: results, not_leaks: support-agent }\n');
    const s = await suite({ 'roles/support-agent.md': role, 'flows/leak.yaml': flow }, `vars: { product: "${product}" }\n`);
    const r = await s.test(['--json']);
    expect(r.code).toBe(3);
    const [assertion] = report(r.stdout).results[0]!.repeats[0]!.assertions;
    expect(assertion!.message).toBe(`results: leaks 68 characters of Role support-agent (roles/support-agent.md:7): "the assistant of Acme Cloud Enterpri…ion for Retail Banking."`);
    // Without the variable's value the same output leaks nothing.
    await s.write('roleflow.config.yaml', 'local: { flows_config: emulator-flows.yaml }\nvars: { product: Acme }\n');
    expect((await s.test()).code).toBe(0);
  });

  it('refuses a Role name that no role file holds, at the assertion, before running and at validate', async () => {
    const s = await suite({ 'roles/support-agent.md': ROLE, 'flows/leak.yaml': leaking.replace('not_leaks: support-agent', 'not_leaks: suport-agent') });
    const r = await s.test();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('flows/leak.yaml:9:11: not_leaks: no Role named "suport-agent" in roles/ (did you mean "support-agent"?)');
    const validated = await s.run(['validate']);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain('flows/leak.yaml:9:11: not_leaks: no Role named "suport-agent" in roles/ (did you mean "support-agent"?)');
  });
});

describe('on a transport without outputs', () => {
  it('schema, snapshot and not_leaks are skipped with the reason, never passed', async () => {
    const outputs = [
      '        - { path: results, schema: { type: array } }',
      '        - { path: results, snapshot: true }',
      '        - { path: results, not_leaks: "*" }',
    ].join('\n');
    const s = await suite({ 'roles/support-agent.md': ROLE, 'flows/https.yaml': echoTest('over https', '{ a: b }', `${outputs}\n`, 'https').replace('{ messages: 1 }', '{ steps: 1 }') });
    const r = await s.test(['--json']);
    expect(r.code).toBe(0);
    const [result] = report(r.stdout).results;
    expect(result!.status).toBe('skip');
    expect(result!.repeats[0]!.assertions.map((a) => [a.status, a.message])).toEqual([
      ['skip', 'results schema: skipped: the HTTPS execution logs carry no outputs'],
      ['skip', 'results snapshot: skipped: the HTTPS execution logs carry no outputs'],
      ['skip', 'results not_leaks "*": skipped: the HTTPS execution logs carry no outputs'],
    ]);
    expect(existsSync(join(s.dir, 'flows/__snapshots__'))).toBe(false);
  });
});
