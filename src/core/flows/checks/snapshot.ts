import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import type { Result } from '../../errors.js';
import { contentDiff } from '../../plan/content-diff.js';
import { parseYaml } from '../../text/yaml-source.js';

/**
 * Snapshot (golden) files: `__snapshots__/<flow file>.snap.yaml` beside the flow file, one YAML
 * map from key (`test name [transport] path`) to the value last accepted. Keys are sorted and
 * values are plain block YAML, so a change reads well in a pull request's diff.
 */
export type SnapshotEntries = ReadonlyMap<string, unknown>;

/** The folder and file name of a flow file's snapshots (relative to the flow file's folder). */
export const SNAPSHOT_DIR = '__snapshots__';
export function snapshotFileName(flowFileName: string): string {
  return `${flowFileName}.snap.yaml`;
}

/** The key of one snapshot assertion's value within its file. */
export function snapshotKey(testName: string, transport: string, path: string): string {
  return `${testName} [${transport}] ${path}`;
}

export function renderSnapshotFile(entries: SnapshotEntries, flowFile: string): string {
  const keys = [...entries.keys()].sort();
  const body = Object.fromEntries(keys.map((k) => [k, entries.get(k)]));
  const head = `# roleflow snapshots of ${flowFile}: keyed "test name [transport] path".\n# \`roleflow test -u\` rewrites this file; commit it with the flow file.\n`;
  return keys.length === 0 ? head : head + stringify(body, { lineWidth: 0, aliasDuplicateObjects: false });
}

export function parseSnapshotFile(text: string, file: string): Result<Map<string, unknown>> {
  const parsed = parseYaml(text, { file });
  if (!parsed.ok) return parsed;
  const value = parsed.value.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, issues: [{ file, line: 1, col: 1, message: 'a snapshot file holds a map of "test name [transport] path" to values' }] };
  }
  return { ok: true, value: new Map(Object.entries(value as Record<string, unknown>)) };
}

/**
 * `value` without the members `ignore` names. A pattern is a path from the value, with `.`
 * between keys (an array index is a key): `execution_id`, `items.0.id`; `*` stands for any one
 * key, `**` for any number of them (`**.created_at`: at any depth).
 */
export function withoutIgnored(value: unknown, ignore: readonly string[]): unknown {
  if (ignore.length === 0) return value;
  const patterns = ignore.map((p) => p.split('.'));
  return prune(value, patterns);
}

function prune(value: unknown, patterns: readonly string[][]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const kept: [string, unknown][] = [];
  for (const [key, child] of entries) {
    const rest = patterns.flatMap((p) => step(p, key));
    if (rest.some((r) => r.length === 0)) continue;
    kept.push([key, rest.length === 0 ? child : prune(child, rest)]);
  }
  return Array.isArray(value) ? kept.map(([, v]) => v) : Object.fromEntries(kept);
}

/** What is left of `pattern` after matching `key` (none when it does not match). */
function step(pattern: readonly string[], key: string): string[][] {
  const [head, ...rest] = pattern;
  if (head === undefined) return [];
  if (head === '**') return [pattern.slice(), ...step(rest, key)];
  return head === '*' || head === key ? [rest] : [];
}

/** Pass, or a unified diff (`- snapshot` / `+ received`) of the two values as YAML. */
export function compareSnapshot(stored: unknown, received: unknown): { pass: true } | { pass: false; diff: string } {
  if (isDeepStrictEqual(stored, received)) return { pass: true };
  const diff = contentDiff(snapshotText(stored).trimEnd(), snapshotText(received).trimEnd(), 'snapshot', 'received');
  return { pass: false, diff };
}

function snapshotText(value: unknown): string {
  return value === undefined ? '' : stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** Keys of `stored` that no snapshot assertion of the flow file names any more. */
export function obsoleteKeys(stored: SnapshotEntries, live: ReadonlySet<string>): string[] {
  return [...stored.keys()].filter((k) => !live.has(k)).sort();
}
