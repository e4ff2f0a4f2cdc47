import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { makeRedactor } from '../../src/core/redact.js';
import { escapeStray } from '../../src/core/safe-text.js';
import { redactSecrets } from '../../src/core/redact-messages.js';

/**
 * The few parts of the GitHub Actions runner protocol the Action needs (what `@actions/core`
 * does), written against an explicit environment and output stream. Every text the Action
 * writes goes through `redact`, so a secret registered with `setSecret` never reaches the log,
 * an output, the job summary or a comment; and through `escapeStray`, so no control character
 * does. Text the Action does not control (what roleflow prints, Role names) goes to the log
 * between `::stop-commands::` and its token (`untrusted`), so none of its lines is a command.
 */
export class Toolkit {
  private readonly secrets: string[] = [];

  constructor(
    readonly env: Record<string, string | undefined>,
    private readonly write: (text: string) => void,
  ) {}

  /** `INPUT_<NAME>` as the runner sets it (spaces → `_`, upper case), trimmed; '' when unset. */
  getInput(name: string): string {
    return (this.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
  }

  /** A YAML 1.2 core-schema boolean input; `fallback` when empty. Anything else is a usage error. */
  getBooleanInput(name: string, fallback: boolean): boolean {
    const value = this.getInput(name);
    if (value === '') return fallback;
    if (['true', 'True', 'TRUE'].includes(value)) return true;
    if (['false', 'False', 'FALSE'].includes(value)) return false;
    throw new ActionInputError(`input "${name}" must be true or false, not "${this.redact(value)}"`);
  }

  /** Hide a value from the log (the runner replaces it with ***) and from everything we write. */
  setSecret(value: string | undefined): void {
    if (value === undefined || value.trim() === '' || this.secrets.includes(value)) return;
    this.secrets.push(value);
    // A multi-line secret is masked line by line, as the runner only matches within a line.
    for (const line of value.split(/\r?\n/)) if (line.trim() !== '') this.write(`::add-mask::${escapeData(line)}\n`);
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
    this.write(escapeStray(this.redact(text.endsWith('\n') ? text : `${text}\n`), false));
  }

  /**
   * Run `write` (which logs text the Action does not control, with `info`) with workflow commands
   * stopped: the runner reads no line as a command until the fresh random token ends the stop, so
   * a test name holding `\n::add-mask::…` stays text. Secrets masked before still are.
   */
  async untrusted<T>(write: () => T | Promise<T>): Promise<T> {
    const token = `roleflow-${randomUUID()}`;
    this.write(`::stop-commands::${token}\n`);
    try {
      return await write();
    } finally {
      this.write(`::${token}::\n`);
    }
  }

  warning(message: string, at?: Annotation): void {
    this.command('warning', message, at);
  }

  error(message: string, at?: Annotation): void {
    this.command('error', message, at);
  }

  /** Appended to `$GITHUB_OUTPUT` with a random heredoc delimiter; printed as a notice without one. */
  setOutput(name: string, value: string | number | boolean): void {
    const text = this.redact(String(value));
    const file = this.env['GITHUB_OUTPUT'];
    if (file === undefined || file === '') {
      this.write(`::set-output name=${escapeProperty(name)}::${escapeData(text)}\n`);
      return;
    }
    const delimiter = `ghadelimiter_${randomUUID()}`;
    appendFileSync(file, `${name}<<${delimiter}\n${text}\n${delimiter}\n`, 'utf8');
  }

  /** Markdown appended to the job summary (`$GITHUB_STEP_SUMMARY`); false when there is none. */
  appendSummary(markdown: string): boolean {
    const file = this.env['GITHUB_STEP_SUMMARY'];
    if (file === undefined || file === '') return false;
    appendFileSync(file, escapeStray(this.redact(markdown.endsWith('\n') ? markdown : `${markdown}\n`), false), 'utf8');
    return true;
  }

  private command(kind: 'warning' | 'error', message: string, at: Annotation | undefined): void {
    const props: string[] = [];
    if (at?.file !== undefined) props.push(`file=${escapeProperty(escapeStray(this.redact(at.file), false))}`);
    if (at?.line !== undefined) props.push(`line=${at.line}`);
    if (at?.col !== undefined) props.push(`col=${at.col}`);
    if (at?.title !== undefined) props.push(`title=${escapeProperty(escapeStray(this.redact(at.title), false))}`);
    this.write(`::${kind}${props.length > 0 ? ` ${props.join(',')}` : ''}::${escapeData(escapeStray(this.redact(message), false))}\n`);
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

/** The runner's escaping of a command's message: no line break is left to end the command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** The runner's escaping of a command property value (`file=`, `title=`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
