import type { Writable } from 'node:stream';
import { escapeControls, fitColumns } from '../core/safe-text.js';

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
    // Cut to the terminal's width: a line that wraps would leave its first part behind on clear.
    const columns = (this.stream as { columns?: number }).columns || 80;
    this.stream.write(`\r\x1b[K${fitColumns(escapeControls(text), Math.max(10, columns - 1))}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
