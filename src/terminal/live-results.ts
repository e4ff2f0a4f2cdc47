import type { ProgressLine } from './progress-line.js';

/**
 * Result lines printed while a status line runs below them (`apply`): lines that arrive in the
 * same turn of the event loop go out in one write — a write per Role costs more than the Role's
 * request once there are thousands — and the status line is wiped before each write and drawn
 * again after, as around any diagnostic (`interject`).
 */
export class LiveResults {
  private readonly pending: string[] = [];
  private status: string | undefined;

  constructor(
    private readonly progress: ProgressLine,
    private readonly print: (text: string) => void,
  ) {}

  /** The status line's text; undefined wipes it. */
  setStatus(text: string | undefined): void {
    this.status = text;
    if (text === undefined) this.progress.clear();
    else this.progress.show(text);
  }

  add(line: string): void {
    if (this.pending.length === 0) setImmediate(() => this.flush());
    this.pending.push(line);
  }

  /** Something else to print (a warning, a retry): never on the end of the status line. */
  interject(write: () => void): void {
    this.progress.clear();
    write();
    if (this.status !== undefined) this.progress.show(this.status);
  }

  /** Every pending line out, the status line gone. */
  finish(): void {
    this.status = undefined;
    this.flush();
    this.progress.clear();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('\n');
    this.pending.length = 0;
    this.interject(() => this.print(text));
  }
}
