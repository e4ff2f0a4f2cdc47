import type { Writable } from 'node:stream';
import { makeRedactor, SHORT_SECRET_LENGTH, type Redactor } from '../core/text/redact.js';
import { escapeStray, jsonText } from '../core/text/safe-text.js';

/** A line drawn in place on the terminal: wiped before anything is printed, drawn again after. */
export interface LiveLine {
  clear(): void;
  /** Draw it again after a write (when it has something to show). */
  redraw?(): void;
}

/**
 * What a command prints, and the one place that decides what may be printed: `out` and `err`
 * mask every secret added so far in text, `outJson` and `outData` in the values of data before
 * it is serialised (so that a secret which is a common word cannot break JSON or XML). `out` and
 * `err` also escape any control character left in the text (`escapeStray`), and wipe the live
 * line first (drawing it again after), so nothing is printed onto it.
 */
export class CommandOutput {
  /** Values redacted from everything printed (`addSecrets`). */
  private readonly secretValues = new Set<string>();
  private currentRedactor: Redactor | undefined;
  private liveLine: LiveLine | undefined;

  constructor(
    private readonly streams: { stdout: Writable; stderr: Writable; env: Record<string, string | undefined> },
    private readonly color: (stream: 'stdout' | 'stderr') => boolean,
  ) {}

  /** Write a result to stdout (secrets redacted, stray control characters escaped). */
  out(text: string): void {
    this.write(this.streams.stdout, escapeStray(this.redact(text), this.color('stdout')));
  }

  /** Write a diagnostic to stderr (secrets redacted, stray control characters escaped). */
  err(text: string): void {
    this.write(this.streams.stderr, escapeStray(this.redact(text), this.color('stderr')));
  }

  /** Write `value` as JSON on stdout (`indent` 0: one line), secrets masked as `outData` does. */
  outJson(value: unknown, indent = 2): void {
    this.outData(value, (v) => jsonText(v, indent));
  }

  /**
   * Write machine-readable output to stdout: secrets are masked in the string values of `value`,
   * which `serialise` then renders (JSON, XML, workflow commands); the text is written as it is,
   * never masked again, so its keys and syntax stand whatever the secrets are. Empty output
   * writes nothing.
   */
  outData<T>(value: T, serialise: (value: T) => string): void {
    const text = serialise(this.redactor.values(value));
    if (text !== '') this.write(this.streams.stdout, text);
  }

  /**
   * `outData` for output too large to hold twice: `serialise` gives the text as UTF-8 in pieces
   * (of about 1 MB), each written as it comes. It masks the secrets itself, with the redactor it
   * is given (see `Redactor.mayHoldSecret`): its text must be that of `redactor.values(value)`.
   */
  outDataBytes<T>(value: T, serialise: (value: T, redactor: Redactor) => Iterable<Uint8Array>): void {
    this.liveLine?.clear();
    for (const piece of serialise(value, this.redactor)) this.streams.stdout.write(piece);
    this.liveLine?.redraw?.();
  }

  /** A line now drawn on the terminal (undefined: none): `out` and `err` never write onto it. */
  showLiveLine(line: LiveLine | undefined): void {
    this.liveLine = line;
  }

  redact(text: string): string {
    return this.redactor.text(text);
  }

  /** The redactor of every secret added so far. */
  get redactor(): Redactor {
    return (this.currentRedactor ??= makeRedactor(this.secretValues));
  }

  /**
   * Redact these values from all that is printed from now on. A short one may also hide parts of
   * ordinary words: the user is told once, by the name of the variable (or flag) holding it.
   */
  addSecrets(values: Iterable<string | undefined>, flag?: string): void {
    const env = this.streams.env;
    for (const value of values) {
      if (!value || this.secretValues.has(value)) continue;
      this.secretValues.add(value);
      this.currentRedactor = undefined;
      if (value.length < SHORT_SECRET_LENGTH) {
        const name = flag ?? Object.keys(env).find((k) => env[k] === value) ?? 'a secret';
        this.err(`warning: ${name} is only ${value.length} characters; it is masked wherever it appears, which may mask ordinary words`);
      }
    }
  }

  private write(stream: Writable, text: string, endLine = true): void {
    this.liveLine?.clear();
    stream.write(!endLine || text.endsWith('\n') ? text : `${text}\n`);
    this.liveLine?.redraw?.();
  }
}
