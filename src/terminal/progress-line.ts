import type { Writable } from 'node:stream';
import { escapeControls, fitColumns } from '../core/text/safe-text.js';

/**
 * The one status line on a terminal (`applying 12/40…`, `running 3/40 · flows/a.yaml > b [ws]`),
 * rewritten in place and wiped before any other output, so it never mixes into results. Escaped
 * and cut to the terminal's width: a line that wraps would leave its first part behind on clear.
 * Does nothing when not `enabled` (not a terminal, or stdout is a pipe).
 */
export class ProgressLine {
  private shown = false;

  constructor(
    private readonly stream: Writable,
    private readonly enabled = true,
  ) {}

  /** The terminal's width; 80 when it does not say. */
  get columns(): number {
    return (this.stream as { columns?: number }).columns || 80;
  }

  show(text: string): void {
    if (!this.enabled) return;
    this.stream.write(`\r\x1b[2K${fitColumns(escapeControls(text), Math.max(10, this.columns - 1))}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
