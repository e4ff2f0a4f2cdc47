import type { Result } from '../core/errors.js';
import { loadFlowsSource, pointerOf } from './flows-config.js';
import { roleTemplatesIn, stringsIn } from './store/role-refs.js';

/** Where a flows file names a Role: a step's `role:`, or a `${role.NAME.…}` in an output string. */
export interface RoleReference {
  flow: string;
  /** The Role's name. */
  name: string;
  /** What names it: `step "llm"`, or `the outputs`. */
  by: string;
  file: string;
  line: number;
  col: number;
}

/**
 * Every Role a flows file names, at the line and column where it does (an output string: where the
 * string starts), in the file's order; the file's own problems when it is not a valid flows file.
 * Pure: text in, result out.
 */
export function flowRoleReferences(text: string, file: string): Result<RoleReference[]> {
  const loaded = loadFlowsSource(text, file);
  if (!loaded.ok) return loaded;
  const { config, source } = loaded.value;
  const references: RoleReference[] = [];
  const at = (flow: string, name: string, by: string, keys: string[]): void => {
    references.push({ flow, name, by, file, ...source.locate(pointerOf(['flows', flow, ...keys])) });
  };
  for (const [flow, { steps, outputs }] of Object.entries(config.flows)) {
    steps.forEach((step, i) => {
      if (step.role !== undefined) at(flow, step.role, `step "${step.service}"`, ['steps', String(i), 'role']);
    });
    for (const { text: string, at: keys } of stringsIn(outputs)) {
      for (const template of roleTemplatesIn(string)) {
        if ('name' in template) at(flow, template.name, 'the outputs', ['outputs', ...keys]);
      }
    }
  }
  return { ok: true, value: references };
}
