import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS } from '../../src/core/flows/duration.js';
import { MAX_REPEAT } from '../../src/core/flows/types.js';
import { YAML_LIMITS } from '../../src/core/text/yaml-source.js';
import { loadSchema } from '../../src/files/package-root.js';
import { runBin, runCli, type CliResult } from '../helpers/cli.js';
import { suite } from './test-kit.js';
import { emulator, project, roleText, run, type Project } from './roles-kit.js';

/** A flow test file whose one test has these extra lines (indented under the test). */
function flowWith(...lines: string[]): string {
  return ['flow: greet', 'tests:', '  - name: t', '    inputs: { name: Ada }', ...lines.map((l) => `    ${l}`), ''].join('\n');
}

/** Lines nested `depth` levels deep in block style, under `key:` at column `indent`. */
function deepBlock(key: string, depth: number, indent = 0): string {
  return Array.from({ length: depth }, (_, i) => `${' '.repeat(indent + i)}${i === 0 ? key : 'k'}:`).join('\n') + ' 1\n';
}

/** The one line a user sees: exit 1, that line alone on stderr, nothing on stdout, no stack trace. */
function expectOneLine(r: CliResult, line: string | RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  if (typeof line === 'string') expect(r.stderr).toBe(`${line}\n`);
  else expect(r.stderr).toMatch(line);
  expect(r.stderr).not.toMatch(/\n\s+at |Maximum call stack|heap|TimeoutOverflow/);
}

/** `validate` offline, then `test` and `plan` against an emulator: each refuses with `line`, and nothing is sent. */
async function refusedEverywhere(p: Project, line: string | RegExp, commands: string[][] = [['validate'], ['test'], ['plan']]): Promise<void> {
  const em = await emulator();
  for (const args of commands) {
    const r = args[0] === 'validate' ? await runCli(args, { cwd: p.dir }) : await run(p, em, args);
    expectOneLine(r, line);
  }
  expect(em.requests()).toEqual([]);
}

describe('bounds: repeat', () => {
  it(`a file's repeat has the maximum of --repeat (${MAX_REPEAT}): above it is a located error at validate, and test sends nothing`, async () => {
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'flows/big.yaml': flowWith('repeat: 99999999') });
    await refusedEverywhere(p, `flows/big.yaml:5:13: tests[0].repeat: must be at most ${MAX_REPEAT}, got 99999999`, [['validate'], ['test']]);
  });

  it('the roleflow process itself exits 1 with the one line, where it used to die of heap exhaustion (exit 134)', async () => {
    const p = await project({ 'flows/big.yaml': flowWith('repeat: 99999999') });
    const r = await runBin(['test'], { cwd: p.dir, timeoutMs: 30_000 });
    expectOneLine(r, `flows/big.yaml:5:13: tests[0].repeat: must be at most ${MAX_REPEAT}, got 99999999`);
  });

  it('min_pass in defaults has the same maximum', async () => {
    const p = await project({ 'flows/big.yaml': `flow: greet\ndefaults: { min_pass: ${MAX_REPEAT + 1} }\ntests:\n  - name: t\n` });
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`flows/big.yaml:2:23: defaults.min_pass: must be at most ${MAX_REPEAT}, got ${MAX_REPEAT + 1}`);
  });

  it('--repeat above the same maximum is a usage error naming it', async () => {
    const p = await project({ 'flows/a.yaml': flowWith() });
    const r = await runCli(['test', '--repeat', String(MAX_REPEAT + 1)], { cwd: p.dir });
    expectOneLine(r, `error: Invalid value for --repeat: expected to be in the [1; ${MAX_REPEAT}] range (got ${MAX_REPEAT + 1}) (see roleflow test --help)`);
  });

  it('the schema editors use says the same maximum', () => {
    const schema = loadSchema('flow-test') as { definitions: Record<string, { maximum?: number }> };
    expect(schema.definitions['repeat']?.maximum).toBe(MAX_REPEAT);
    expect(schema.definitions['minPass']?.maximum).toBe(MAX_REPEAT);
  });
});

describe('bounds: durations are at most 24h', () => {
  expect(MAX_DURATION_MS).toBe(86_400_000);
  const cases: [string, string, string][] = [
    ['timeout: 25h', '5:14', 'tests[0].timeout: duration "25h" is more than 24h, the longest roleflow accepts'],
    ['timeout: 2147483648', '5:14', 'tests[0].timeout: duration 2147483648 is more than 24h, the longest roleflow accepts'],
    ['until: { quiet: 1441m }', '5:21', 'tests[0].until.quiet: duration "1441m" is more than 24h, the longest roleflow accepts'],
    ['expect: { latency: { total: "< 90000000" } }', '5:33', 'tests[0].expect.latency.total: invalid budget "< 90000000": duration "90000000" is more than 24h, the longest roleflow accepts'],
  ];
  for (const [line, at, message] of cases) {
    it(`a flow test's ${line}: a located error at validate; test sends nothing`, async () => {
      const p = await project({ 'flows/slow.yaml': flowWith(line) });
      await refusedEverywhere(p, `flows/slow.yaml:${at}: ${message}`, [['validate'], ['test']]);
    });
  }

  it('24h itself is accepted', async () => {
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'flows/day.yaml': flowWith('timeout: 24h', 'until: { quiet: 86400000, messages: 1 }') });
    const r = await runCli(['validate'], { cwd: p.dir });
    expect(r).toEqual({ code: 0, stdout: '1 role file and 1 flow test file are valid.\n', stderr: '' });
  });

  it("a tenant's timeout in the config: a located error for every command", async () => {
    const p = await project({
      'roles/a.md': roleText('a', 'd', 'c'),
      'roleflow.config.yaml': 'tenants:\n  slow:\n    base_url: https://tenant.example.invalid\n    timeout: 25h\n',
    });
    await refusedEverywhere(p, 'roleflow.config.yaml:4:14: tenants.slow.timeout: duration "25h" is more than 24h, the longest roleflow accepts');
  });
});

describe('bounds: YAML nesting depth', () => {
  const deep = YAML_LIMITS.maxDepth + 1;
  const message = `nested more than ${YAML_LIMITS.maxDepth} levels deep (the most roleflow reads)`;

  it('in a flow test (1000 levels): one located line, not a stack overflow', async () => {
    const p = await project({ 'flows/deep.yaml': `${flowWith()}    expect: { outputs: [ { path: a, equals: ${'['.repeat(1000)}${']'.repeat(1000)} } ] }\n` });
    await refusedEverywhere(p, new RegExp(`^flows/deep\\.yaml:5:\\d+: ${message.replace(/[()]/g, '\\$&')}\\n$`), [['validate'], ['test']]);
  });

  it('in role front-matter', async () => {
    const p = await project({ 'roles/deep.md': `---\nname: deep\ndescription: d\n${deepBlock('extra', deep)}---\nbody\n` });
    await refusedEverywhere(p, `roles/deep.md:${3 + deep}:${deep}: ${message}`, [['validate'], ['plan']]);
  });

  it('in the config, for every command', async () => {
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roleflow.config.yaml': `local:\n  data: x\n${deepBlock('vars', 1000)}` });
    await refusedEverywhere(p, `roleflow.config.yaml:${2 + deep}:${deep}: ${message}`);
  });
});

describe('bounds: the config file', () => {
  it('larger than 1 MiB is refused unread, for every command', async () => {
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roleflow.config.yaml': `# ${'x'.repeat(1024 * 1024)}\n` });
    await refusedEverywhere(p, 'roleflow.config.yaml:1:1: file is too large (1048579 bytes): a config file may hold at most 1048576 bytes (1 MiB)');
  });

  it('with a NUL byte, or not UTF-8, is a binary file', async () => {
    const nul = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roleflow.config.yaml': Buffer.from('roles:\n  dir: r\0les\n') });
    await refusedEverywhere(nul, 'roleflow.config.yaml:2:9: binary file (contains a NUL byte): a config file is YAML text');
    const latin1 = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roleflow.config.yaml': Buffer.from([0x23, 0x20, 0xe9, 0x0a]) });
    await refusedEverywhere(latin1, 'roleflow.config.yaml:1:1: binary file (not valid UTF-8): a config file is YAML text');
  });

  it('a missing --config file is one clear line', async () => {
    const p = await project({ 'roles/a.md': roleText('a', 'd', 'c') });
    for (const args of [['validate'], ['plan'], ['test'], ['pull']]) {
      const r = await runCli([...args, '--config', 'nope.yaml'], { cwd: p.dir });
      expectOneLine(r, 'error: config file nope.yaml not found (given with --config)');
    }
  });
});

describe('bounds: tenant names that are object keys', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`--tenant ${name} is an unknown tenant listing the known ones`, async () => {
      const p = await project({
        'roles/a.md': roleText('a', 'd', 'c'),
        'flows/a.yaml': flowWith(),
        'roleflow.config.yaml': 'tenants:\n  staging:\n    base_url: https://tenant.example.invalid\n',
      });
      for (const command of ['plan', 'test', 'pull']) {
        const r = await runCli([command, '--tenant', name], { cwd: p.dir, env: { ROLEFLOW_TOKEN: 'a-token-for-the-test' } });
        expectOneLine(r, `error: unknown tenant "${name}" in roleflow.config.yaml; known: local, staging`);
      }
    });

    const refusedKey = name === '__proto__' || name === 'constructor';
    it(`a tenant configured under the name ${name} ${refusedKey ? 'is a located error, as that key is anywhere' : 'is found like any other'}`, async () => {
      const em = await emulator();
      const p = await project({ 'roles/a.md': roleText('a', 'd', 'c'), 'roleflow.config.yaml': `tenants:\n  ${name}:\n    base_url: ${em.baseUrl}\n` });
      const r = await runCli(['plan', '--tenant', name], { cwd: p.dir, env: { ROLEFLOW_TOKEN: em.token } });
      if (refusedKey) {
        expectOneLine(r, `roleflow.config.yaml:2:3: key "${name}" is not allowed`);
        return;
      }
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    });

    it(`default_tenant: ${name} is a located error at validate`, async () => {
      const p = await project({
        'roles/a.md': roleText('a', 'd', 'c'),
        'roleflow.config.yaml': `default_tenant: ${JSON.stringify(name)}\ntenants:\n  staging:\n    base_url: https://tenant.example.invalid\n`,
      });
      const r = await runCli(['validate'], { cwd: p.dir });
      // __proto__ as a value is a string like any other; only keys are refused.
      expectOneLine(r, `roleflow.config.yaml:1:17: default_tenant: no tenant named "${name}" under tenants`);
    });
  }
});

describe('configuration from the environment', () => {
  it('an unset ${env:NAME} in a test input names NAME, on the console and in the JSON report', async () => {
    const s = await suite({
      'flows/env.yaml':
        'flow: greet\ndefaults: { until: { steps: 2, node: node-2 } }\ntests:\n  - name: needs a variable\n    inputs: { name: "Dear ${env:RF_UNSET_GREETING_NAME}" }\n',
    });
    const r = await s.test(['--reporter', 'console', '--reporter', 'json=report.json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('environment variable RF_UNSET_GREETING_NAME not set (used in inputs as ${env:NAME})');
    expect(await s.read('report.json')).toContain('environment variable RF_UNSET_GREETING_NAME not set');
    const set = await s.test([], { env: { RF_UNSET_GREETING_NAME: 'Ada' } });
    expect(set.code, set.stdout).toBe(0);
  });
});
