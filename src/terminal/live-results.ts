import type { LiveLine } from './output.js';
import type { ProgressLine } from './progress-line.js';

/**
 * Result lines printed while a status line runs below them (`apply`): lines that arrive in the
 * same turn of the event loop go out in one write — a write per Role costs more than the Role's
 * request once there are thousands. As the command's live line (`CommandOutput.showLiveLine`)
 * the status line is wiped before each write, this one or a diagnostic, and drawn again after.
 */
export class LiveResults implements LiveLine {
  private readonly pending: string[] = [];
  private status: string | undefined;

  /** `progress` drawing nothing: the lines only, no status line (not a terminal, or stdout is a pipe). */
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

  /** `applying 3/40…` while changes are left; nothing once the last has ended. */
  count(verb: string, ended: number, total: number): void {
    this.setStatus(ended < total ? `${verb} ${ended}/${total}…` : undefined);
  }

  add(line: string): void {
    if (this.pending.length === 0) setImmediate(() => this.flush());
    this.pending.push(line);
  }

  /** Wipe the status line (before any other output); `redraw` draws it again. */
  clear(): void {
    this.progress.clear();
  }

  redraw(): void {
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
    this.clear();
    this.print(text);
    this.redraw();
  }
}
