import type { Issue } from '../../errors.js';
import { maxOf } from '../../text/lists.js';
import { closest } from '../../text/schema.js';
import { normalise } from './leak-normal.js';
import { snapshotKey } from './snapshot.js';
import type { FlowTestFile, OutputAssertion, Transport } from '../types.js';

/** What the output assertions of some flow files need read before they run: Roles, snapshots. */

export function usesOperator(files: readonly FlowTestFile[], operator: OutputAssertion['operator']): boolean {
  return files.some((f) => f.tests.some((t) => t.expect.outputs.some((a) => a.operator === operator)));
}

/** A `not_leaks` naming a Role no role file holds: an issue at the assertion. */
export function unknownLeakRoles(files: readonly FlowTestFile[], roleNames: readonly string[], rolesDir: string): Issue[] {
  const known = new Set(roleNames);
  return files.flatMap((f) =>
    f.tests.flatMap((t) =>
      t.expect.outputs
        .filter((a) => a.operator === 'not_leaks' && a.expected !== '*' && !known.has(String(a.expected)))
        .map((a) => {
          const guess = closest(String(a.expected), [...known]);
          const hint = guess ? ` (did you mean "${guess}"?)` : '';
          return { file: f.file, line: a.line, col: a.col, message: `not_leaks: no Role named ${JSON.stringify(a.expected)} in ${rolesDir}/${hint}` };
        }),
    ),
  );
}

/** A `judge` naming no judge of the config's `judges:`: an issue at the assertion. */
export function unknownJudges(files: readonly FlowTestFile[], judges: readonly string[]): Issue[] {
  const known = new Set(judges);
  return files.flatMap((f) =>
    f.tests.flatMap((t) =>
      t.expect.outputs
        .filter((a) => a.operator === 'judge' && !known.has(a.judge!.name))
        .map((a) => {
          const guess = closest(a.judge!.name, [...known]);
          const hint = guess ? ` (did you mean "${guess}"?)` : known.size === 0 ? ' (the config has no judges:)' : '';
          return { file: f.file, line: a.line, col: a.col, message: `judge: no judge named ${JSON.stringify(a.judge!.name)} in the config's judges:${hint}` };
        }),
    ),
  );
}

/**
 * A `not_leaks` whose Role (or, for `*`, every Role) is shorter than its `min_chars`, as compared
 * (leak-normal.ts): no run that long can ever be found, so the assertion always passes. A warning
 * at the assertion.
 */
export function shortLeakRoles(files: readonly FlowTestFile[], roles: readonly { name: string; content: string }[]): Issue[] {
  const lengths = new Map(roles.map((r) => [r.name, normalise(r.content).text.trim().length]));
  const longest = maxOf(lengths.values(), 0);
  return files.flatMap((f) =>
    f.tests.flatMap((t) =>
      t.expect.outputs.flatMap((a) => {
        if (a.operator !== 'not_leaks' || a.minChars === undefined) return [];
        const all = a.expected === '*';
        const length = all ? (roles.length > 0 ? longest : undefined) : lengths.get(String(a.expected));
        if (length === undefined || length >= a.minChars) return [];
        const what = all ? `every Role is at most ${length} characters` : `Role ${JSON.stringify(a.expected)} is ${length} characters`;
        const message = `warning: not_leaks: ${what}, shorter than min_chars ${a.minChars}: no leak can ever be found; set min_chars to ${Math.max(1, length)} or less`;
        return [{ file: f.file, line: a.line, col: a.col, message }];
      }),
    ),
  );
}

const ALL_TRANSPORTS: readonly Transport[] = ['https', 'ws'];

/**
 * Every snapshot key a flow file's tests could write (each test × each of its transports × each
 * snapshot path, skipped tests included): a stored key not among them is obsolete.
 */
export function liveSnapshotKeys(file: FlowTestFile): Set<string> {
  const keys = new Set<string>();
  for (const t of file.tests) {
    for (const a of t.expect.outputs) {
      if (a.operator !== 'snapshot') continue;
      for (const transport of t.transports ?? ALL_TRANSPORTS) keys.add(snapshotKey(t.name, transport, a.path));
    }
  }
  return keys;
}
