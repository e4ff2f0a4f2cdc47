import type { Writable } from 'node:stream';

/**
 * The live `running 12/40 …` line on a terminal's stderr, rewritten in place and cleared at the
 * end. `line` must give one line that fits in `width` columns (`progressLine` escapes the test's
 * name and cuts it), so that `\r` and erase-line wipe all of it. The command clears it before
 * anything else is printed, on stdout or stderr (`RoleflowCommand.showLiveLine`).
 */
export class Progress {
  private readonly running: string[] = [];
  private done = 0;
  private total = 0;
  private shown = false;

  constructor(
    private readonly stream: Writable,
    private readonly line: (done: number, total: number, current: string | undefined, width?: number) => string,
  ) {}

  start(label: string, done: number, total: number): void {
    this.running.push(label);
    this.done = done;
    this.total = total;
    this.draw();
  }

  finish(label: string, done: number, total: number): void {
    const at = this.running.indexOf(label);
    if (at !== -1) this.running.splice(at, 1);
    this.done = done;
    this.total = total;
    this.draw();
  }

  draw(): void {
    // 0 when the terminal does not say its size.
    const width = (this.stream as { columns?: number }).columns || 80;
    this.stream.write(`\r\x1b[2K${this.line(this.done, this.total, this.running.at(-1), width)}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
