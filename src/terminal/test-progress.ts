import type { Writable } from 'node:stream';
import { ProgressLine } from './progress-line.js';

/**
 * `test`'s progress: which executions are running, drawn as the one `ProgressLine`
 * (`running 12/40 · flows/a.yaml > name [ws]`). `line` renders it for a width (`progressLine`
 * escapes the test's name and cuts it). The command clears it before anything else is printed,
 * on stdout or stderr (`RoleflowCommand.showLiveLine`).
 */
export class Progress {
  private readonly running: string[] = [];
  private done = 0;
  private total = 0;
  private readonly widget: ProgressLine;

  constructor(
    stream: Writable,
    private readonly line: (done: number, total: number, current: string | undefined, width?: number) => string,
  ) {
    this.widget = new ProgressLine(stream);
  }

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
    this.widget.show(this.line(this.done, this.total, this.running.at(-1), this.widget.columns));
  }

  clear(): void {
    this.widget.clear();
  }
}
