import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { buildCli } from '../../src/cli.js';
import { RoleflowCommand } from '../../src/commands/base.js';
import { configOf } from '../../src/run/ports.js';
import { RoleflowError } from '../../src/core/errors.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { runOnce, snapshotBin } from './serve-kit.js';
import { runInProcess } from './test-kit.js';

const SECRET = 'very-secret-T0ken-9c1e';

/** A bug: an error roleflow did not expect, whose message happens to hold a secret. */
class BoomCommand extends RoleflowCommand {
  static override paths = [['boom']];
  async execute(): Promise<number> {
    this.ports.output.addSecrets([SECRET]);
    throw new TypeError(`cannot read properties of undefined (reading '${SECRET}')\nsecond line`);
  }
}

/** Opens the embedded tenant, remembers where it listens, then fails without closing it. */
class LeakCommand extends RoleflowCommand {
  static override paths = [['leak']];
  static baseUrl = '';
  async execute(): Promise<number> {
    const tenant = await this.ports.openTenant(await configOf(this.common, this.ports), {});
    LeakCommand.baseUrl = tenant.target.baseUrl;
    throw new RoleflowError('gave up halfway', 'guard');
  }
}

/** A bug thrown as a plain Error. */
class PlainBoomCommand extends RoleflowCommand {
  static override paths = [['plain-boom']];
  async execute(): Promise<number> {
    throw new Error('plain failure');
  }
}

function run(argv: string[], cwd = process.cwd()): Promise<CliResult> {
  const cli = buildCli({ colors: false });
  cli.register(BoomCommand);
  cli.register(PlainBoomCommand);
  cli.register(LeakCommand);
  return runInProcess(argv, { cwd, cli });
}

describe('errors of the CLI', () => {
  it('prints an unexpected error as one line that points at --verbose, secrets masked, exit 1', async () => {
    const r = await run(['boom']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: cannot read properties of undefined (reading '***') (internal error; run with --verbose for details)\n",
    });
  });

  it('prints the stack with --verbose, still masked', async () => {
    const r = await run(['boom', '--verbose']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: TypeError: cannot read properties of undefined \(reading '\*\*\*'\)\nsecond line\n\s+at /);
    expect(r.stderr).toContain('errors.test.ts');
    expect(r.stderr).not.toContain(SECRET);
  });

  it('spells the prefix one way, error:, with or without --verbose, whatever was thrown', async () => {
    expect(await run(['plain-boom'])).toEqual({ code: 1, stdout: '', stderr: 'error: plain failure (internal error; run with --verbose for details)\n' });
    const verbose = await run(['plain-boom', '--verbose']);
    expect(verbose.stderr).toMatch(/^error: plain failure\n\s+at /);
    const { dir, cleanup } = await tempDir('roleflow-prefix-');
    try {
      const outputs = [
        verbose,
        await run(['leak'], dir),
        await run(['validate', '--config', 'nope.yaml'], dir),
        await run(['plan', '--tenant', 'constructor'], dir),
        await run(['test', '--repeat', '0'], dir),
        await run(['nope'], dir),
      ];
      for (const r of outputs) {
        expect(r.stderr).toMatch(/^error: /);
        expect(r.stderr).not.toMatch(/\bError:/);
      }
    } finally {
      await cleanup();
    }
  });

  it('closes a tenant the command left open when it failed, and keeps the exit code', async () => {
    const { dir, cleanup } = await tempDir('roleflow-leak-');
    try {
      const r = await run(['leak'], dir);
      expect(r).toMatchObject({ code: 4, stderr: 'error: gave up halfway\n' });
      expect(LeakCommand.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expect(request(`${LeakCommand.baseUrl}/admin/roles/get`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await cleanup();
    }
  });
});

describe('usage errors of the process', () => {
  let bin: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ bin, cleanup } = await snapshotBin());
  });
  afterAll(async () => {
    await cleanup();
  });

  it('names an unknown command in one line with the likely one, never echoing an option value', async () => {
    const r = await runOnce(bin, ['serv', '--token', SECRET, '--port', '0'], { cwd: process.cwd() });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unknown command "serv" (did you mean "roleflow serve"?); roleflow --help lists the commands\n',
    });
  });

  it('names a bad option in one line pointing at the command help', async () => {
    const r = await runOnce(bin, ['serve', '--token', SECRET, '--prot', '0'], { cwd: process.cwd() });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: Unsupported option name ("--prot") (did you mean "--port"?) (see roleflow serve --help)\n' });
  });
});
