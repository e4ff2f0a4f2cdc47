import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { project, roleText } from './roles-kit.js';

// The embedded tenant's own flows: `write` names two Roles, `plain` none.
const FLOWS = `flows:
  write:
    steps:
      - { service: retriever }
      - { service: llm, role: writer }
    outputs:
      results:
        - { text: "\${role.editor.description}: \${topic}" }
  plain:
    steps: [{ service: echo }]
    outputs: { results: ["\${*}"] }
`;

const CONFIG = 'default_tenant: local\nlocal: { flows_config: flows.yaml }\ntenants:\n  staging: { base_url: "https://flows.example.com/t/staging" }\n';

describe('validate: the Roles the embedded tenant\'s flows name', () => {
  it('is an error at each reference to a Role no role file holds for local, naming why', async () => {
    const p = await project({
      'roleflow.config.yaml': CONFIG,
      'flows.yaml': FLOWS,
      // writer is managed on staging only: the embedded tenant never gets it.
      'roles/writer.md': '---\nname: writer\ndescription: d\ntenants: [staging]\n---\nWrite.\n',
    });
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      'flows.yaml:5:31: Role "writer" (step "llm" of flow "write") is not for tenant "local" (tenants: [staging] in roles/writer.md:4): the embedded tenant will not have it, and the flow fails there',
      'flows.yaml:8:19: Role "editor" (the outputs of flow "write") is in no role file of roles/: the embedded tenant will not have it, and the flow fails there',
    ]);

    await p.write('roles/writer.md', roleText('writer', 'd', 'Write.'));
    await p.write('roles/editor.md', roleText('editor', 'd', 'Edit.'));
    expect(await runCli(['validate'], { cwd: p.dir })).toEqual({ code: 0, stdout: '2 role files and 0 flow test files are valid.\n', stderr: 'note: flows/ not found, nothing checked there\n' });
  });

  it("reports a broken flows file of the config's at its line", async () => {
    const p = await project({
      'roleflow.config.yaml': CONFIG,
      'flows.yaml': FLOWS.replace('role.editor.description', 'role.editor.body'),
      'roles/writer.md': roleText('writer', 'd', 'Write.'),
    });
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('flows.yaml:8:19: flows.write.outputs.results[0].text: ${role.editor.body}: a Role has no field "body"; use content or description\n');
  });

  it('checks, of the built-in flows, those the flow tests run', async () => {
    const summarize = 'flow: summarize\ntransport: ws\ntests:\n  - name: t\n    inputs: { text: hi }\n    until: { messages: 3 }\n';
    const echo = summarize.replace('summarize', 'echo');
    const p = await project({ 'flows/echo.yaml': echo });
    // The built-in summarize and assistant name Roles this repository does not have: no test runs them.
    expect(await runCli(['validate'], { cwd: p.dir })).toMatchObject({ code: 0 });

    await p.write('flows/summarize.yaml', summarize);
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^\S*emulator-flows\.yaml:\d+:\d+: Role "summarizer" \(step "llm" of flow "summarize", tested by flows\/summarize\.yaml\) is in no role file of roles\/: /m,
    );
    await p.write('roles/summarizer.md', roleText('summarizer', 'd', 'Summarize.'));
    expect(await runCli(['validate'], { cwd: p.dir })).toMatchObject({ code: 0 });
  });
});

describe('validate: tests that would be skipped', () => {
  const TESTS = `flow: echo
tests:
  - name: outputs over https
    transport: https
    inputs: { a: x }
    expect:
      outputs:
        - { path: "results[0].a", equals: x }
        - { path: results, length: 1 }
  - name: only ws
    transport: ws
    inputs: { a: x }
    until: { messages: 1 }
  - name: either
    inputs: { a: x }
    until: { steps: 1, messages: 1 }
    expect:
      outputs:
        - { path: "results[0].a", equals: x }
  - name: skipped anyway
    transport: https
    skip: later
    expect:
      outputs:
        - { path: "results[0].a", equals: x }
`;

  it('warns at the first output assertion of an HTTPS-only test; exit 0', async () => {
    const p = await project({ 'flows/t.yaml': TESTS });
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('flows/'))).toEqual([
      'flows/t.yaml:8:11: warning: test "outputs over https" runs only over HTTPS (transport: https) and the HTTPS execution log carries no outputs: its 2 output assertions are always skipped; run it over ws too, or assert on steps instead',
    ]);
  });

  it('on a tenant without a ws_url (the default, or ROLEFLOW_TENANT), warns of WebSocket-only tests and of output assertions it makes HTTPS-only', async () => {
    const config = 'default_tenant: staging\ntenants:\n  staging: { base_url: "https://flows.example.com/t/s" }\n  prod: { base_url: "https://flows.example.com/t/p", ws_url: "wss://flows.example.com/t/p/ws" }\n';
    const p = await project({ 'flows/t.yaml': TESTS, 'roleflow.config.yaml': config });
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('flows/'))).toEqual([
      expect.stringMatching(/^flows\/t\.yaml:8:11: warning: test "outputs over https" runs only over HTTPS \(transport: https\)/),
      'flows/t.yaml:10:5: warning: test "only ws" runs only over WebSocket, and tenant staging has no ws_url: it is always skipped (a run in which no test ran exits 1)',
      'flows/t.yaml:19:11: warning: test "either" runs only over HTTPS, as tenant staging has no ws_url, and the HTTPS execution log carries no outputs: its output assertion is always skipped; give the tenant a ws_url, or assert on steps instead',
    ]);
    const onProd = await runCli(['validate'], { cwd: p.dir, env: { ROLEFLOW_TENANT: 'prod' } });
    expect(onProd.stderr.split('\n').filter((l) => l.startsWith('flows/'))).toHaveLength(1);
  });
});

describe('validate: a misindented flow test file', () => {
  it('is one line at the misindented line, and test stops on it the same way', async () => {
    const p = await project({ 'flows/greet.yaml': 'flow: greet\ntests:\n  - name: a\n    inputs: { name: A }\n  expect:\n    steps: { count: 2 }\n' });
    const line = 'flows/greet.yaml:5:3: bad indentation: "expect:" is at the column of the list items ("- " on line 3): indent it to column 5 to belong to the item above, or start a new item with "- "\n';
    expect(await runCli(['validate'], { cwd: p.dir })).toEqual({ code: 1, stdout: '', stderr: line });
    const test = await runCli(['test'], { cwd: p.dir });
    expect(test.code).toBe(1);
    expect(test.stderr).toBe(line);
  });
});
