import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import { renderPlanJson, type Plan } from '../core/roles/index.js';
import { compileSchema, validateAgainst } from '../core/schema.js';
import { parseYaml } from '../core/yaml-source.js';
import { loadSchema } from './package-root.js';
import { writeFileAtomic } from './role-files.js';
import { readBounded } from './source-files.js';

/** A saved plan holds the full content of every planned Role; this is far above any real one. */
const MAX_PLAN_BYTES = 256 * 1024 * 1024;

/** `plan --out FILE`: the plan JSON, written atomically so `apply` never reads half a plan. */
export async function savePlan(path: string, plan: Plan): Promise<void> {
  try {
    await writeFileAtomic(path, renderPlanJson(plan));
  } catch (err) {
    throw new RoleflowError(`cannot write the plan to ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/**
 * `apply PLANFILE`: the saved plan, checked against `schemas/plan.schema.json`. Problems are
 * located at `file:line:col` (a plan is JSON, which is YAML, so the YAML reader locates them).
 */
export async function readSavedPlan(abs: string, file: string): Promise<Plan> {
  const bytes = await readBounded(abs, file, { maxBytes: MAX_PLAN_BYTES, noun: 'a saved plan' });
  if (!bytes.ok) throw new InvalidFilesError(bytes.issues);
  const text = Buffer.from(bytes.value).toString('utf8');
  const schema = loadSchema('plan');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const located = parseYaml(text, { file });
    if (!located.ok) throw new InvalidFilesError(located.issues);
    throw new InvalidFilesError([{ file, line: 1, col: 1, message: 'not JSON: a saved plan is the file `roleflow plan --out FILE` writes' }]);
  }
  // The fast path for the usual, valid plan; the slower YAML reader only to say where a problem is.
  if (compileSchema(schema)(value)) return value as Plan;
  const located = parseYaml(text, { file });
  if (!located.ok) throw new InvalidFilesError(located.issues);
  const checked = validateAgainst<Plan>(schema, located.value, file);
  if (!checked.ok) throw new InvalidFilesError(checked.issues);
  return checked.value;
}
