import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { onTestFinished } from 'vitest';
import { main } from '../../src/cli.js';
import type { Role } from '../../src/core/model.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { call } from '../helpers/emulator.js';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';

/** Helpers for the role commands' tests: a project folder, an emulator, and runs against it. */

/** A distinctive token: any output that contains it leaked it. */
export const TOKEN = 'rf-SECRET-7f3a9c2e1b5d-token';

export interface Project {
  dir: string;
  write(rel: string, content: string | Uint8Array): Promise<void>;
  read(rel: string): Promise<string>;
}

/** A temp project folder with these files (removed after the test). */
export async function project(files: Record<string, string | Uint8Array> = {}): Promise<Project> {
  const { dir, cleanup } = await tempDir('roleflow-roles-');
  onTestFinished(cleanup);
  const write = async (rel: string, content: string | Uint8Array): Promise<void> => {
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    await writeFile(join(dir, rel), content);
  };
  for (const [rel, content] of Object.entries(files)) await write(rel, content);
  return { dir, write, read: (rel) => readFile(join(dir, rel), 'utf8') };
}

/** An emulator for one test, closed after it; `roles` are on the tenant from the start. */
export async function emulator(options: EmulatorOptions = {}, roles: Partial<Role>[] = []): Promise<RunningEmulator> {
  let dataFile: string | undefined;
  if (roles.length > 0) {
    const { dir, cleanup } = await tempDir('roleflow-tenant-');
    onTestFinished(cleanup);
    dataFile = join(dir, 'roles.json');
    const stored = roles.map((r, i) => ({ id: `id-${i}`, description: '', content: '', ...r }));
    await writeFile(dataFile, JSON.stringify(stored));
  }
  const em = await startEmulator({ token: TOKEN, ...(dataFile === undefined ? {} : { dataFile }), ...options });
  onTestFinished(() => em.close());
  return em;
}

/** `roleflow <args> --base-url … --tenant test` in `p.dir`, with the token in the environment. */
export function run(p: Project, em: RunningEmulator, args: string[], opts: { tty?: boolean } = {}): Promise<CliResult> {
  return runCli([...args, '--base-url', em.baseUrl, '--tenant', 'test'], {
    cwd: p.dir,
    env: { ROLEFLOW_TOKEN: em.token },
    ...opts,
  });
}

/**
 * Like `run`, on a terminal whose user types `answer` (when given), and whose Ctrl-C comes when
 * `interruptWhen` first sees stdout match it. `env`: the tenants come from the project's config
 * and this environment instead of `em` (which may then be undefined).
 */
export async function runOnTerminal(
  p: Project,
  em: RunningEmulator | undefined,
  args: string[],
  opts: { answer?: string; interruptWhen?: RegExp; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let interrupt: () => void = () => undefined;
  const shutdown = new Promise<void>((resolve) => (interrupt = resolve));
  stdout.on('data', (c: Buffer) => {
    out.push(c);
    if (opts.interruptWhen?.test(Buffer.concat(out).toString('utf8'))) interrupt();
  });
  stderr.on('data', (c: Buffer) => {
    err.push(c);
    // Answer once the question is on the screen, as a person would.
    if (opts.answer !== undefined && !stdin.writableEnded && Buffer.concat(err).toString('utf8').includes("Only 'yes' is accepted:")) {
      stdin.end(`${opts.answer}\n`);
    }
  });
  const argv = opts.env !== undefined || em === undefined ? args : [...args, '--base-url', em.baseUrl, '--tenant', 'test'];
  const code = await main(argv, {
    env: opts.env ?? { ROLEFLOW_TOKEN: em?.token },
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    colorDepth: 1,
    cwd: p.dir,
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    waitForShutdown: () => shutdown,
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** A role file's text. */
export function roleText(name: string, description: string, content: string, id?: string): string {
  return `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n${id === undefined ? '' : `id: ${id}\n`}---\n${content}\n`;
}

/** Put a Role on the tenant directly; returns its id. */
export async function seed(em: RunningEmulator, name: string, description = `${name} role`, content = `You are ${name}.`): Promise<string> {
  const reply = await call(em, 'POST', '/admin/roles/create', { body: { name, description, content } });
  return (reply.body as { id: string }).id;
}

/** Requests that changed the tenant, since `from` requests had been made (see `requestCount`). */
export function mutations(em: RunningEmulator, from = 0): string[] {
  return em
    .requests()
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);
}

/** How many requests the emulator has answered so far: a mark for `mutations(em, mark)`. */
export function requestCount(em: RunningEmulator): number {
  return em.requests().length;
}

/** The tenant's Roles as sorted `name: description / content` lines, easy to compare. */
export function tenantState(em: RunningEmulator): string[] {
  return em
    .roles()
    .map((r) => `${r.name}: ${r.description} / ${r.content}`)
    .sort();
}
