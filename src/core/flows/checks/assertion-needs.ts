import type { Issue } from '../../errors.js';
import { closest } from '../../text/schema.js';
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
