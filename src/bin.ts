#!/usr/bin/env node
// The CLI's entry, built into dist/bin.js (scripts/build.mjs).
import { fstatSync } from 'node:fs';
import { Cli } from 'clipanion';
import { main } from './cli.js';
import { describeError } from './terminal/error-line.js';
import { RoleflowError } from './core/errors.js';
import { argvSecrets, environmentSecrets, redactAll } from './core/text/redact.js';

const argv = process.argv.slice(2);

// A bug that escapes every command (a rejection nobody awaited, an error in a callback) still
// ends as one line on stderr and exit 1, with the stack only under --verbose.
const crash = (error: unknown): void => {
  const line = describeError(error, argv.includes('--verbose'));
  process.stderr.write(`${redactAll(line, [...environmentSecrets(process.env), ...argvSecrets(argv)])}\n`);
  process.exit(1);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
// `roleflow plan | head` closes the pipe early: the reader's choice, not an error to report.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? process.exit(process.exitCode ?? 0) : crash(error)));
}

// The event loop emptied while the command still waits: on a promise nothing can settle any more
// (a policy plugin's, say). Without this Node would end with exit 0 and nothing said.
let finished = false;
process.on('beforeExit', () => {
  if (!finished) crash(new RoleflowError('the command stopped unfinished: it waited on a promise that can never settle (a policy plugin that never returns?)'));
});

main(argv, {
  ...Cli.defaultContext,
  cwd: process.cwd(),
  stdinIsTTY: process.stdin.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutIsPipe: isPipe(1),
  ...fileAt(1),
  // The first SIGINT/SIGTERM asks for a clean stop; a second one kills the process as usual.
  waitForShutdown: () =>
    new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    }),
}).then(async (code) => {
  finished = true;
  process.exitCode = code;
  // Exit once the output is out rather than when the event loop empties (idle keep-alive
  // sockets, background work nobody waits for). Nothing is cut short: every file a command writes
  // (reports, saved plans, the embedded tenant's data) is awaited before main() resolves, and a
  // write's callback runs only after the writes queued before it.
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
}, crash);

// A FIFO, or the socket pair a parent process gives its child.
function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

// A regular file that stdout was redirected to by the shell, created before roleflow started.
function fileAt(fd: number): { stdoutFile?: { dev: bigint; ino: bigint } } {
  try {
    const stat = fstatSync(fd, { bigint: true });
    return stat.isFile() ? { stdoutFile: { dev: stat.dev, ino: stat.ino } } : {};
  } catch {
    return {};
  }
}
