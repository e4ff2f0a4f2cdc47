import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { findAll, parseXml } from '../report/xml.js';
import { suite } from './test-kit.js';
import { hostileFlows, RAW_CONTROL } from '../helpers/hostile-text.js';

/**
 * Text roleflow does not control — test names, skip reasons, WebSocket frames, a tenant's error
 * bodies, Role names, config values — carrying terminal escapes (window title, clear screen), NUL,
 * CR and line breaks that would start GitHub workflow commands, run through the real CLI against
 * the embedded tenant and a tiny server on 127.0.0.1. What a user sees must hold none of it raw.
 */

// Each attack, as YAML double-quoted escapes (so the files themselves are plain text).
const ATTACK_YAML = String.raw`\e]0;pwned\a \e[2J \0 \r \n::warning::x \n::add-mask::x \u202e \x9b`;
const ATTACK = '\u001b]0;pwned\u0007 \u001b[2J \u0000 \r \n::warning::x \n::add-mask::x \u202e \u009b';

// C0 but line feed, DEL, C1, bidi and zero-width format characters, line/paragraph separators.

/** Lines starting a workflow command that roleflow did not mean: anything but its own `::error file=…`. */
function forgedCommands(text: string): string[] {
  return text.split('\n').filter((line) => /^\s*::/.test(line) && !/^::error file=[^\n]*,title=roleflow%3A [^\n]*::/.test(line));
}

function expectNeutral(what: string, text: string): void {
  expect(RAW_CONTROL.exec(text)?.[0], `${what} holds a raw control character`).toBeUndefined();
  expect(forgedCommands(text), `${what} starts a workflow command`).toEqual([]);
  expect(text, what).not.toContain('pwned\u0007');
}

const FLOWS = hostileFlows(ATTACK_YAML);

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

/** A tenant on 127.0.0.1 that refuses everything with `status` and `body`. */
async function refusingTenant(status: number, body: string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('text roleflow does not control, shown escaped', () => {
  it('test names, skip reasons and WebSocket frames: console, JSON, JUnit, github annotations and summary', async () => {
    const s = await suite({ 'flows/echo.yaml': FLOWS });
    const run = await s.test(['--reporter', 'console', '--reporter', 'json=out/r.json', '--reporter', 'junit=out/r.xml', '--reporter', 'github=out/summary.md', '--reporter', 'html=out/r.html']);
    expect(run.code).toBe(3);
    expectNeutral('stdout', run.stdout);
    // HTML: no raw control character, the name visible as escapes.
    const html = await s.read('out/r.html');
    expectNeutral('the HTML report', html);
    expect(html).toContain('name \\u001b]0;pwned\\u0007');
    expectNeutral('stderr', run.stderr);
    // Visible, as escapes, on the test's own line.
    expect(run.stdout).toContain('name \\u001b]0;pwned\\u0007 \\u001b[2J \\u0000 \\r \\n::warning::x \\n::add-mask::x \\u202e \\u009b [ws]');
    expect(run.stdout).toContain('skipped: reason \\u001b]0;pwned\\u0007');
    expect(run.stdout).toMatch(/got "frame \\u001b\]0;pwned\\u0007 .*\\n::warning::x/);
    // roleflow's own annotations are there, one line each, with the name escaped.
    const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toContain('title=roleflow%3A name \\u001b]0;pwned\\u0007');

    // JSON: valid, names exact (data), messages escaped (text for people), no raw control anywhere.
    const jsonText = await s.read('out/r.json');
    expectNeutral('the JSON report', jsonText);
    const report = JSON.parse(jsonText) as { results: { name: string; message: string; repeats: { assertions: { message: string }[] }[] }[] };
    expect(report.results.map((r) => r.name)).toEqual([`name ${ATTACK}`, 'frame', 'skipped']);
    expect(report.results[2]!.message).toBe('reason \\u001b]0;pwned\\u0007 \\u001b[2J \\u0000 \\r \\n::warning::x \\n::add-mask::x \\u202e \\u009b');
    expect(report.results[1]!.repeats[0]!.assertions[0]!.message).toContain('frame \\u001b]0;pwned\\u0007');

    // JUnit: well-formed XML 1.0 (the strict reader throws otherwise), the name visible.
    const xml = await s.read('out/r.xml');
    expectNeutral('the JUnit report', xml);
    const cases = findAll(parseXml(xml), 'testcase');
    expect(cases.map((c) => c.attrs['name'])).toContain('name \\u001b]0;pwned\\u0007 \\u001b[2J \\u0000 \\r \\n::warning::x \\n::add-mask::x \\u202e \\u009b [ws]');
    expect(findAll(parseXml(xml), 'skipped')[0]!.attrs['message']).toContain('reason \\u001b]0;pwned');

    const summary = await s.read('out/summary.md');
    expectNeutral('the step summary', summary);
    expect(summary).toContain('pwned');

    // A report written by hand (or another tool) with raw controls in a message: `report merge`
    // shows it escaped too, and its merged JSON stores it escaped.
    const hand = JSON.parse(jsonText) as { results: { message: string }[] };
    hand.results[0]!.message = `hand ${ATTACK}`;
    await s.write('hand.json', JSON.stringify(hand));
    const merge = await s.run(['report', 'merge', 'hand.json', '--out', 'merged.json', '--reporter', 'console']);
    expect(merge.code).toBe(3);
    expectNeutral('report merge', merge.stdout + merge.stderr);
    const merged = JSON.parse(await s.read('merged.json')) as typeof hand & { results: { name: string }[] };
    expect(merged.results[0]!.message).toBe('hand \\u001b]0;pwned\\u0007 \\u001b[2J \\u0000 \\r \\n::warning::x \\n::add-mask::x \\u202e \\u009b');
    expect(merged.results[0]!.name).toBe(`name ${ATTACK}`);
  });

  it("a tenant's error body: the test's error on the console and in every report", async () => {
    const body = JSON.stringify({ message: `denied ${ATTACK}` });
    const base = await refusingTenant(422, body);
    const s = await suite(
      { 'flows/echo.yaml': 'flow: echo\ntests:\n  - name: plain\n    inputs: {}\n    expect: { steps: { count: 1 } }\n' },
      `tenants:\n  odd:\n    base_url: ${base}\n    token_env: ODD_TOKEN\n`,
    );
    const run = await s.test(['--tenant', 'odd', '--reporter', 'console', '--reporter', 'json=r.json', '--reporter', 'junit=r.xml', '--reporter', 'github=s.md'], {
      env: { ODD_TOKEN: 'odd-token-123456' },
    });
    expect([run.code, run.stderr]).toEqual([3, expect.any(String)]);
    const shown = `${run.stdout}${run.stderr}`;
    expectNeutral('the console', shown);
    expect(shown).toContain('denied \\u001b]0;pwned\\u0007 \\u001b[2J \\u0000');
    for (const file of ['r.json', 'r.xml', 's.md']) expectNeutral(file, await s.read(file));
    parseXml(await s.read('r.xml'));
  });

  it('a tenant error that stops the command, and a config value, are one line with their escapes', async () => {
    const base = await refusingTenant(400, JSON.stringify({ message: `bad ${ATTACK}` }));
    const s = await suite({ 'roles/a.md': '---\nname: a\ndescription: d\n---\nbody\n' }, `tenants:\n  odd:\n    base_url: ${base}\n    token_env: ODD_TOKEN\n`);
    const plan = await s.run(['plan', '--tenant', 'odd'], { env: { ODD_TOKEN: 'odd-token-123456' } });
    expect(plan.code).toBe(1);
    expectNeutral('plan stderr', plan.stderr);
    expect(plan.stderr.trim().split('\n')).toHaveLength(1);
    expect(plan.stderr).toContain('bad \\u001b]0;pwned');

    const unknown = await s.run(['plan', '--tenant', `x${ATTACK}`]);
    expect(unknown.code).toBe(1);
    expectNeutral('unknown tenant', unknown.stderr);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);

    for (const argv of [[`pl${ATTACK}`], ['plan', `--x${ATTACK}`], ['test', '--grep', `(${ATTACK}`]]) {
      const usage = await s.run(argv);
      expect(usage.code).toBe(1);
      expectNeutral(`roleflow ${argv.join(' ')}`, usage.stdout + usage.stderr);
      expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('Role names from files and from the tenant: plan, apply and their JSON', async () => {
    const name = `role ${ATTACK}`;
    const s = await suite({ 'roles/a.md': `---\nname: "${ATTACK_YAML.replace(/^/, 'role ')}"\ndescription: "desc ${ATTACK_YAML}"\n---\nbody\n` });
    const plan = await s.run(['plan']);
    expect(plan.code).toBe(0);
    expectNeutral('plan', plan.stdout + plan.stderr);
    expect(plan.stdout).toContain('role \\u001b]0;pwned\\u0007');

    const json = await s.run(['plan', '--json']);
    expectNeutral('plan --json', json.stdout);
    expect((JSON.parse(json.stdout) as { changes: { name: string }[] }).changes[0]!.name).toBe(name);

    const apply = await s.run(['apply', '--auto-approve']);
    expect(apply.code).toBe(0);
    expectNeutral('apply', apply.stdout + apply.stderr);
    expect(apply.stdout).toContain('created "role \\u001b]0;pwned\\u0007');
  });
});

describe('a tenant whose execution logs and frames carry hostile text', () => {
  const FLOWS_CONFIG = `flows:
  hostile:
    steps:
      - { service: "svc ${ATTACK_YAML}", latency: 1 }
      - { service: crash, latency: 1, fail: true, fail_status: "st ${ATTACK_YAML}" }
    outputs:
      results: []
`;
  const TEST = `flow: hostile
tests:
  - name: logs
    inputs: {}
    until: { steps: 2 }
    expect:
      steps: { sequence: [a, b] }
`;

  it('service names and step statuses: console, JSON (exact keys), JUnit and the step summary', async () => {
    const s = await suite({ 'emulator-flows.yaml': FLOWS_CONFIG, 'flows/hostile.yaml': TEST });
    const run = await s.test(['--reporter', 'console', '--reporter', 'json=r.json', '--reporter', 'junit=r.xml', '--reporter', 'github=s.md']);
    expect(run.code).toBe(3);
    expectNeutral('the console', run.stdout + run.stderr);
    expect(run.stdout).toContain('svc \\u001b]0;pwned\\u0007');
    for (const file of ['r.json', 'r.xml', 's.md']) expectNeutral(file, await s.read(file));
    parseXml(await s.read('r.xml'));
    const report = JSON.parse(await s.read('r.json')) as { results: { transport: string; repeats: { steps: { service: string; status: string }[] }[] }[] };
    const https = report.results.find((r) => r.transport === 'https')!;
    expect(https.repeats[0]!.steps.map((x) => x.service)).toContain(`svc ${ATTACK}`);
  });
});

describe('paths from the arguments, printed', () => {
  it('have their control characters escaped like tenant text: no forged line, no workflow command', async () => {
    const s = await suite({ 'flows/ok.yaml': 'flow: echo\ntests:\n  - { name: ok, inputs: { v: x }, until: { steps: 1, messages: 1 } }\n', 'roles/.keep': '' });
    const name = 'out\n::warning::forged\u001b[2J.json';
    const plan = await s.run(['plan', '--out', name]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('Saved the plan to out\\n::warning::forged\\u001b[2J.json. To carry out exactly this plan: roleflow apply out\\n::warning::forged\\u001b[2J.json');
    const applied = await s.run(['apply', name]);
    expect(applied.stdout).toContain('Applying the saved plan out\\n::warning::forged\\u001b[2J.json');
    const tested = await s.test(['--reporter', 'console', '--reporter', `json=${name}`]);
    expect(tested.stderr).toContain('wrote out\\n::warning::forged\\u001b[2J.json');
    const merged = await s.run(['report', 'merge', name, '--out', `m-${name}`]);
    expect(merged.stderr).toContain('wrote m-out\\n::warning::forged\\u001b[2J.json');
    for (const r of [plan, applied, tested, merged]) {
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/^::warning::/m);
      expect(`${r.stdout}${r.stderr}`).not.toContain('\u001b[2J');
    }
  });
});
