import type { Issue } from '../errors.js';
import { pointerToPath } from '../text/schema.js';
import type { YamlSource } from '../text/yaml-source.js';
import { parseBudget, parseDuration } from './duration.js';
import type { Budget, Located } from './types.js';

/**
 * What loading one flow test file needs beyond the schema: positions of values by JSON pointer,
 * and the problems found so far. Loading reads the value defensively (the schema may have failed
 * too), so every problem in a file is reported in one pass.
 */
export class LoadContext {
  readonly issues: Issue[] = [];

  constructor(
    readonly file: string,
    private readonly source: YamlSource,
  ) {}

  at(pointer: string): Located {
    return this.source.locate(pointer);
  }

  /** A problem at the value under `pointer` (or at the key `key` of the map there), named by its path. */
  report(pointer: string, message: string, key?: string): void {
    const pos = this.source.locate(pointer, key === undefined ? undefined : { key });
    const where = pointer === '' ? '' : `${pointerToPath(pointer)}: `;
    this.issues.push({ file: this.file, ...pos, message: where + message });
  }

  /** A duration in ms, or undefined (reported when it was written but is wrong). */
  duration(value: unknown, pointer: string, opts: { positive?: boolean } = {}): number | undefined {
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    const parsed = parseDuration(value);
    if (!parsed.ok) return this.fail(pointer, parsed.error);
    if (opts.positive && parsed.value <= 0) return this.fail(pointer, 'must be more than 0');
    return parsed.value;
  }

  budget(value: unknown, pointer: string): Budget | undefined {
    if (typeof value !== 'string') return undefined;
    const parsed = parseBudget(value);
    return parsed.ok ? parsed.value : this.fail(pointer, parsed.error);
  }

  private fail(pointer: string, message: string): undefined {
    this.report(pointer, message);
    return undefined;
  }
}

/** The object at a value, or an empty one: the schema reports the wrong type. */
export function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function int(v: unknown): number | undefined {
  return Number.isInteger(v) ? (v as number) : undefined;
}

/** Append keys to a JSON pointer, escaping `~` and `/` (a step glob may hold either). */
export function ptr(base: string, ...keys: (string | number)[]): string {
  let pointer = base;
  for (const k of keys) {
    const key = String(k);
    // Most keys hold neither `~` nor `/`: no replace (two regex passes) for them.
    pointer += `/${key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key}`;
  }
  return pointer;
}
