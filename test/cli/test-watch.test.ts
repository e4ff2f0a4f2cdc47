import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { EMULATOR_FLOWS, GREET } from './test-kit.js';

/** `roleflow ARGS` started in-process in `cwd`, its output as it comes, and Ctrl-C on demand. */
function start(args: string[], cwd: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const seen = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (seen.out += c.toString()));
  stderr.on('data', (c: Buffer) => (seen.err += c.toString()));
  let interrupt: () => void = () => undefined;
  const shutdown = new Promise<void>((resolve) => (interrupt = resolve));
  const code = main(args, {
    env: {},
    stdin: process.stdin,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    colorDepth: 1,
    cwd,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    waitForShutdown: () => shutdown,
  });
  /** Resolves when `pattern` has appeared `times` times in stdout (or stderr), in a generous time. */
  const waitFor = async (pattern: RegExp, where: 'out' | 'err' = 'out', times = 1) => {
    const end = Date.now() + 20_000;
    const count = () => seen[where].match(new RegExp(pattern.source, 'g'))?.length ?? 0;
    while (count() < times) {
      if (Date.now() > end) throw new Error(`no ${pattern} in std${where}:\n${seen.out}\n---\n${seen.err}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { seen, code, waitFor, interrupt: () => interrupt() };
}

/** A project on the embedded tenant with flows/greet.yaml. */
async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'roleflow-watch-cli-'));
  await mkdir(join(dir, 'flows'));
  await writeFile(join(dir, 'emulator-flows.yaml'), EMULATOR_FLOWS);
  await writeFile(join(dir, 'roleflow.config.yaml'), 'local: { flows_config: emulator-flows.yaml }\n');
  await writeFile(join(dir, 'flows/greet.yaml'), GREET);
  return dir;
}

describe('roleflow test --watch', () => {
  it('reruns a saved test file, survives an invalid one, and ends with 130 on Ctrl-C', async () => {
    const dir = await project();
    try {
      await writeFile(join(dir, 'flows/echo.yaml'), 'flow: echo\ntransport: https\ntests:\n  - { name: echoes }\n');
      const watch = start(['test', '--watch', '--transport', 'https'], dir);
      await watch.waitFor(/Watching for changes/);
      expect(watch.seen.out).toContain('✓ flows/greet.yaml > greets Ada [https]');
      expect(watch.seen.out).toContain('✓ flows/echo.yaml > echoes [https]');

      // A saved change reruns that file's tests, and only them.
      await writeFile(join(dir, 'flows/echo.yaml'), 'flow: echo\ntransport: https\ntests:\n  - { name: echoes again }\n');
      await watch.waitFor(/↻ flows\/echo\.yaml changed: running flows\/echo\.yaml/);
      await watch.waitFor(/✓ flows\/echo\.yaml > echoes again \[https\]/);
      await watch.waitFor(/Watching for changes/, 'out', 2);
      expect(watch.seen.out.split('↻')[1]).not.toContain('greets Ada');

      // An invalid file: the error shown, the watch kept.
      await writeFile(join(dir, 'flows/echo.yaml'), 'flow: echo\ntests:\n  - { name: broken, repeat: 0 }\n');
      await watch.waitFor(/flows\/echo\.yaml:3:/, 'err');
      await watch.waitFor(/Watching for changes/, 'out', 3);
      await writeFile(join(dir, 'flows/echo.yaml'), 'flow: echo\ntransport: https\ntests:\n  - { name: fixed }\n');
      await watch.waitFor(/✓ flows\/echo\.yaml > fixed \[https\]/);

      watch.interrupt();
      expect(await watch.code).toBe(130);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('exits 1 with the one-line error of `test PATH` when a PATH given does not exist', async () => {
    const dir = await project();
    try {
      const once = start(['test', 'flows/gret.yaml'], dir);
      expect(await once.code).toBe(1);
      const watch = start(['test', '--watch', 'flows/greet.yaml', 'flows/gret.yaml'], dir);
      // Still watching after a while is the defect: Ctrl-C would end it with 130.
      const timer = setTimeout(() => watch.interrupt(), 15_000);
      const code = await watch.code;
      clearTimeout(timer);
      expect(code).toBe(1);
      expect(watch.seen.err).toBe(once.seen.err);
      expect(watch.seen.err.trim().split('\n')).toEqual([expect.stringContaining('flows/gret.yaml: no such file or folder')]);
      expect(watch.seen.out).not.toContain('Watching for changes');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
