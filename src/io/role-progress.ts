import type { Writable } from 'node:stream';

/**
 * One status line on a terminal (`applying 12/40…`), rewritten in place and wiped before any
 * other output, so it never mixes into results. Does nothing when the stream is not a terminal.
 */
export class ProgressLine {
  private shown = false;

  constructor(
    private readonly stream: Writable,
    private readonly enabled: boolean,
  ) {}

  show(text: string): void {
    if (!this.enabled) return;
    this.stream.write(`\r\x1b[K${text}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
