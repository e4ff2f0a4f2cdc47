import type { Issue } from '../core/errors.js';
import type { FlowTestFile } from '../core/flows/index.js';
import { filesForTenant, notForTenantReason, quote, type RoleFile } from '../core/roles/index.js';
import type { TextFileKind } from '../core/text/text-file.js';
import { flowRoleReferences } from '../emulator/flow-role-refs.js';
import type { EmbeddedFlowsFile } from '../files/config-file.js';
import { readTextFile } from '../files/source-files.js';
import { LOCAL_TENANT } from '../tenant/open-tenant.js';

const FLOWS_FILE: TextFileKind = { maxBytes: 4 * 1024 * 1024, noun: 'an emulator flows file', holds: 'YAML text' };

/**
 * `validate`: each Role the embedded tenant's flows name (a step's `role:`, `${role.NAME.…}`) that
 * the role files do not hold for `local` — no file names it, or its `tenants:` leave `local` out —
 * is an error at the reference: `test` there would fail that step. Every flow of the config's own
 * flows file is checked; of the built-in file, which serves the example flows of roleflow and of
 * `init`, only the flows the flow tests (`tests`, when they loaded) run. A broken own file is
 * reported as such.
 */
export async function embeddedFlowRoleIssues(
  flows: EmbeddedFlowsFile,
  roles: readonly RoleFile[],
  tests: readonly FlowTestFile[] | undefined,
  rolesDir: string,
): Promise<Issue[]> {
  if (!flows.own && tests === undefined) return [];
  const text = await readTextFile(flows, FLOWS_FILE);
  if (!text.ok) return text.issues;
  const references = flowRoleReferences(text.value, flows.file);
  if (!references.ok) return references.issues;
  const testedBy = new Map<string, string>();
  for (const test of tests ?? []) if (!testedBy.has(test.flow)) testedBy.set(test.flow, test.file);
  const { kept, excluded } = filesForTenant(roles, LOCAL_TENANT);
  const held = new Set(kept.map((r) => r.name));
  return references.value
    .filter((ref) => !held.has(ref.name) && (flows.own || testedBy.has(ref.flow)))
    .map((ref) => {
      const tested = testedBy.get(ref.flow);
      const used = `Role ${quote(ref.name)} (${ref.by} of flow ${quote(ref.flow)}${tested === undefined ? '' : `, tested by ${tested}`})`;
      const other = excluded.find((r) => r.name === ref.name);
      const why =
        other === undefined
          ? `is in no role file of ${rolesDir}/: the embedded tenant will not have it, and the flow fails there`
          : `is ${notForTenantReason(other, LOCAL_TENANT)}: the embedded tenant will not have it, and the flow fails there`;
      return { file: ref.file, line: ref.line, col: ref.col, message: `${used} ${why}` };
    });
}
