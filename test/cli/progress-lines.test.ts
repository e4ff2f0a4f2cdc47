import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { binPath } from '../helpers/cli.js';
import { suite, type Suite } from './test-kit.js';

/**
 * The live progress line on a terminal's stderr while stdout is piped (`roleflow test | tee log`):
 * it must be wiped before anything else is printed, on either stream, and never wrap (a wrapped
 * line cannot be wiped by `\r`). stderr here is a terminal 40 columns wide, read as a terminal
 * reads it: `\r` goes back to the start of the row, `ESC[2K`/`ESC[K` erases it, `\n` moves on.
 */

const COLUMNS = 40;

interface Screen {
  /** Each time something was printed while the row held a progress line, what the row held. */
  printedOverProgress: string[];
  /** Every progress line drawn. */
  drawn: string[];
  /** What the row holds at the end. */
  row(): string;
}

class FakeTerminal extends Writable {
  readonly columns = COLUMNS;
  readonly isTTY = true;
  constructor(private readonly onText: (text: string) => void) {
    super({ decodeStrings: false });
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.onText(chunk.toString());
    callback();
  }
}

async function runWithTtyStderr(s: Suite, argv: string[]): Promise<{ code: number; stdout: string; screen: Screen }> {
  let row = '';
  let stdout = '';
  const screen: Screen = { printedOverProgress: [], drawn: [], row: () => row };
  const stderr = new FakeTerminal((text) => {
    const progress = /^\r\u001b\[2?K/.exec(text);
    if (progress) {
      row = text.slice(progress[0].length);
      if (row !== '') screen.drawn.push(row);
      return;
    }
    if (row !== '') screen.printedOverProgress.push(row);
    row = text.split('\n').at(-1)!;
  });
  const out = new FakeTerminal((text) => {
    if (row !== '') screen.printedOverProgress.push(row);
    stdout += text;
  });
  const code = await main(argv, {
    env: { ODD: '1' },
    stdin: Readable.from([]) as unknown as NodeJS.ReadStream,
    stdout: out as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    colorDepth: 1,
    cwd: s.dir,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: true,
    waitForShutdown: () => new Promise(() => undefined),
  });
  return { code, stdout, screen };
}

function expectWiped(screen: Screen): void {
  // The progress line was shown (or this test could not fail)…
  expect(screen.drawn.length).toBeGreaterThan(0);
  // …never under anything printed, never over the terminal's width, never over two rows…
  expect(screen.printedOverProgress).toEqual([]);
  for (const line of screen.drawn) {
    expect(line).not.toMatch(/[\n\r\u001b\u0007\u0000]/);
    const width = [...line].reduce((n, ch) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60]|\p{Extended_Pictographic}/u.test(ch) ? 2 : 1), 0);
    expect(width).toBeLessThan(COLUMNS);
  }
  // …and gone at the end.
  expect(screen.row()).toBe('');
}

const LONG_NAME = String.raw`日本語のとても長いテスト名 🚀🚀🚀 with a line\nbreak \e]0;pwned\a and more text to wrap`;

describe('the progress line, with stdout piped and stderr on a terminal', () => {
  it('test: wiped before every result, every verbose request line and the summary', async () => {
    const tests = Array.from({ length: 6 }, (_, i) => `  - name: "${i} ${LONG_NAME}"\n    inputs: { i: "${i}" }\n    until: { steps: 1 }\n    expect: { steps: { count: 1 } }\n`).join('');
    const s = await suite({ 'flows/echo.yaml': `flow: echo\ntransport: https\ntests:\n${tests}` });
    const run = await runWithTtyStderr(s, ['test', '--verbose', '--concurrency', '2']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tests: 6 passed');
    expectWiped(run.screen);
  });

  it('apply: wiped before the result lines and the summary', async () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`roles/r${i}.md`, `---\nname: role-${i}\ndescription: d\n---\nbody ${i}\n`]));
    const s = await suite(files);
    const run = await runWithTtyStderr(s, ['apply', '--auto-approve', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+ created role-7');
    expectWiped(run.screen);
  });
});

/** `command` run by a shell whose stdin, stdout and stderr are a pseudo-terminal (util-linux `script`); what the terminal received. */
function onPseudoTerminal(command: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('script', ['-qec', command, '/dev/null'], { cwd, env: { ...process.env, NO_COLOR: '1', COLUMNS: '60', LINES: '20' }, timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

const SCRIPT = ['/usr/bin/script', '/bin/script'].some((p) => existsSync(p));

describe.skipIf(!SCRIPT)('the built CLI on a real pseudo-terminal', () => {
  const flows = `flow: echo\ntransport: https\ntests:\n${['a', 'b', 'c'].map((n) => `  - name: ${n}\n    inputs: {}\n    until: { steps: 1 }\n    expect: { steps: { count: 1 } }\n`).join('')}`;

  it('stdout piped into a program that prints to the terminal: no progress line for its output to land on', async () => {
    const s = await suite({ 'flows/echo.yaml': flows });
    const screen = await onPseudoTerminal(`node ${JSON.stringify(binPath)} test --verbose | cat`, s.dir);
    expect(screen).toContain('Tests: 3 passed');
    expect(screen).not.toContain('running');
    expect(screen).not.toContain('\u001b[2K');
  });

  it('stdout to a file: the progress line is drawn on the terminal, and wiped at the end', async () => {
    const s = await suite({ 'flows/echo.yaml': flows });
    const screen = await onPseudoTerminal(`node ${JSON.stringify(binPath)} test > out.txt`, s.dir);
    expect(screen).toMatch(/running [0-3]\/3 · flows\/echo\.yaml > [abc] \[https\]/);
    expect(screen.endsWith('\r\u001b[2K')).toBe(true);
    expect(await s.read('out.txt')).toContain('Tests: 3 passed');
  });
});
