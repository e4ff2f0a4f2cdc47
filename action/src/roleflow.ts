import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli.js';

export interface RoleflowRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RoleflowRunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Complete lines of stdout as they come (the console and github reporters); undefined keeps stdout quiet. */
  onStdoutLine?: (line: string) => void;
  /** Complete lines of stderr as they come. */
  onStderrLine: (line: string) => void;
}

/**
 * Run roleflow in this process, exactly as the CLI would run with `argv`, and return its exit
 * code and what it printed. Nothing is read from stdin: like any CI run, it is not a terminal.
 */
export async function runRoleflow(argv: string[], opts: RoleflowRunOptions): Promise<RoleflowRun> {
  const stdout = new LineCapture(opts.onStdoutLine);
  const stderr = new LineCapture(opts.onStderrLine);
  const code = await main(argv, {
    env: opts.env,
    stdin: Readable.from([]) as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    colorDepth: 1,
    cwd: opts.cwd,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    waitForShutdown: () => new Promise<void>(() => undefined),
  });
  return { code, stdout: stdout.finish(), stderr: stderr.finish() };
}

/** Keeps everything written, and hands out whole lines as they complete (a secret is never split). */
class LineCapture extends Writable {
  private readonly chunks: string[] = [];
  private pending = '';

  constructor(private readonly onLine: ((line: string) => void) | undefined) {
    super({ decodeStrings: false });
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.chunks.push(text);
    if (this.onLine !== undefined) {
      const lines = (this.pending + text).split('\n');
      this.pending = lines.pop() ?? '';
      for (const line of lines) this.onLine(line);
    }
    callback();
  }

  finish(): string {
    if (this.onLine !== undefined && this.pending !== '') this.onLine(this.pending);
    this.pending = '';
    return this.chunks.join('');
  }
}
