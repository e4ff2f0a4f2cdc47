import * as core from '@actions/core';
import { randomUUID } from 'node:crypto';
import { makeRedactor } from '../../src/core/text/redact.js';
import { redactSecrets } from '../../src/core/redact-messages.js';
import { escapeStray } from '../../src/core/text/safe-text.js';

/**
 * The runner protocol through `@actions/core`, with one rule on top: every text the Action writes
 * (log, annotations, outputs, job summary, comment) is first redacted of the secrets registered
 * with `setSecret` and stripped of control characters (`escapeStray`), so a secret never reaches
 * an output, the summary or a comment (the runner only masks the log), and no control character
 * reaches anything. Text the Action does not control (what roleflow prints, Role names) goes to the
 * log between `::stop-commands::` and its token (`untrusted`), so none of its lines is a command.
 */
export class Toolkit {
  /** The runner's environment, which `@actions/core` reads too. */
  readonly env: Record<string, string | undefined> = process.env;
  private readonly secrets: string[] = [];

  /** Hide a value from the log (the runner replaces it with ***) and from everything we write. */
  setSecret(value: string | undefined): void {
    if (value === undefined || value.trim() === '' || this.secrets.includes(value)) return;
    this.secrets.push(value);
    // A multi-line secret is masked line by line, as the runner only matches within a line.
    for (const line of value.split(/\r?\n/)) if (line.trim() !== '') core.setSecret(line);
  }

  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  /**
   * Parsed data with every string value masked (keys untouched): masking JSON as text first could
   * turn a short secret inside a key into a document that no longer parses.
   */
  redactValues<T>(value: T): T {
    return makeRedactor(this.secrets).values(value);
  }

  info(text: string): void {
    if (text === '') return;
    core.info(this.clean(text.endsWith('\n') ? text.slice(0, -1) : text));
  }

  /** Shown only when the run is re-run with debug logging (`ACTIONS_STEP_DEBUG`). */
  debug(text: string): void {
    core.debug(this.clean(text));
  }

  /** `fn`'s log folded under a title the reader can open. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T> {
    return core.group(this.clean(title), fn);
  }

  /**
   * Run `write` (which logs text the Action does not control, with `info`) with workflow commands
   * stopped: the runner reads no line as a command until the fresh random token ends the stop, so
   * a test name holding `\n::add-mask::…` stays text. Secrets masked before still are.
   * (`@actions/core` has no call for this command; it is written as the runner documents it.)
   */
  async untrusted<T>(write: () => T | Promise<T>): Promise<T> {
    const token = `roleflow-${randomUUID()}`;
    process.stdout.write(`::stop-commands::${token}\n`);
    try {
      return await write();
    } finally {
      process.stdout.write(`::${token}::\n`);
    }
  }

  notice(message: string, at?: Annotation): void {
    core.notice(this.clean(message), this.properties(at));
  }

  warning(message: string, at?: Annotation): void {
    core.warning(this.clean(message), this.properties(at));
  }

  error(message: string, at?: Annotation): void {
    core.error(this.clean(message), this.properties(at));
  }

  /** An error annotation that also fails the step (exit code 1). */
  setFailed(message: string): void {
    core.setFailed(this.clean(message));
  }

  setOutput(name: string, value: string | number | boolean): void {
    core.setOutput(name, this.redact(String(value)));
  }

  /** Markdown appended to the job summary (`$GITHUB_STEP_SUMMARY`); false when there is none. */
  async appendSummary(markdown: string): Promise<boolean> {
    if (!this.env['GITHUB_STEP_SUMMARY']) return false;
    await core.summary.addRaw(this.clean(markdown), !markdown.endsWith('\n')).write();
    return true;
  }

  private clean(text: string): string {
    return escapeStray(this.redact(text), false);
  }

  private properties(at: Annotation | undefined): core.AnnotationProperties {
    return {
      ...(at?.title === undefined ? {} : { title: this.clean(at.title) }),
      ...(at?.file === undefined ? {} : { file: this.clean(at.file) }),
      ...(at?.line === undefined ? {} : { startLine: at.line }),
      ...(at?.col === undefined ? {} : { startColumn: at.col }),
    };
  }
}

/** Where an annotation points: a file relative to the repository root, 1-based line and column. */
export interface Annotation {
  file?: string;
  line?: number;
  col?: number;
  title?: string;
}

/** A bad `with:` value: reported as one line and the step fails. */
export class ActionInputError extends Error {
  override readonly name = 'ActionInputError';
}
