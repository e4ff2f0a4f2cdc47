import { stat } from 'node:fs/promises';
import { InvalidFilesError, RoleflowError } from '../core/errors.js';
import { plural } from '../core/roles/index.js';
import { PLAN_FORMAT_VERSION, planJsonBytes, renderTenantPlansJson, type Plan, type TenantPlans } from '../core/plan/index.js';
import { compileSchema, validateAgainst } from '../core/text/schema.js';
import { parseYaml } from '../core/text/yaml-source.js';
import { loadSchema } from './package-root.js';
import { oneLine } from '../core/redact-messages.js';
import { writeFileAtomic } from './role-files.js';
import { readBounded } from './source-files.js';

/** A saved plan holds the full content of every planned Role; this is far above any real one. */
const MAX_PLAN_BYTES = 256 * 1024 * 1024;

/**
 * `plan --out FILE`: the plan JSON (for several tenants, their document), written atomically so
 * `apply` never reads half a plan; a plan of one tenant piece by piece (`planJsonBytes`), as
 * `plan --json` prints it, so a large plan's text is never held whole.
 */
export async function savePlan(path: string, plan: Plan | readonly Plan[]): Promise<void> {
  try {
    await writeFileAtomic(path, isPlanList(plan) ? renderTenantPlansJson(plan) : planJsonBytes(plan));
  } catch (err) {
    throw new RoleflowError(`cannot write the plan to ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/**
 * `apply PLANFILE`: the saved plan, checked against `schemas/plan.schema.json`. A file that is
 * not one (a role file, `{}`, any other JSON or YAML, a plan with a problem) is one line, exit 1:
 * `roles/x.md is not a saved plan (not JSON): …`, the first problem located at line:col.
 */
export async function readSavedPlan(abs: string, file: string): Promise<Plan> {
  const read = await readSavedPlanFile(abs, file);
  if ('tenants' in read) throw notAPlan(file, `it holds the plans of ${read.tenants.length} tenants, not one`);
  return read;
}

/** A saved plan of one tenant, or of several (`{format_version, tenants}`): see `readSavedPlan`. */
export async function readSavedPlanFile(abs: string, file: string): Promise<Plan | TenantPlans> {
  const bytes = await readBounded(abs, file, { maxBytes: MAX_PLAN_BYTES, noun: 'a saved plan' });
  if (!bytes.ok) throw new InvalidFilesError(bytes.issues);
  const text = Buffer.from(bytes.value).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notAPlan(file, 'not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw notAPlan(file, `JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}, not an object`);
  }
  const record = value as Record<string, unknown>;
  if (!('format_version' in record) || !('changes' in record || 'tenants' in record)) throw notAPlan(file, 'no "format_version" and "changes"');
  if (record['format_version'] !== PLAN_FORMAT_VERSION) {
    throw notAPlan(file, `format_version ${JSON.stringify(record['format_version'])}; this roleflow reads ${PLAN_FORMAT_VERSION}`);
  }
  const schema = loadSchema('plan');
  // The fast path for the usual, valid plan; the slower YAML reader only to say where a problem is.
  if (compileSchema(schema)(value)) {
    // `plan --json` of several tenants shows one that could not be planned; `--out` never saves it.
    const failed = 'tenants' in record ? (record['tenants'] as { tenant: { name: string }; error?: unknown }[]).find((p) => p.error !== undefined) : undefined;
    if (failed !== undefined) throw notAPlan(file, `tenant ${JSON.stringify(failed.tenant.name)} in it was not planned (it holds an error, not a plan)`);
    return value as Plan | TenantPlans;
  }
  const located = parseYaml(text, { file });
  const checked = located.ok ? validateAgainst<Plan | TenantPlans>(schema, located.value, file) : located;
  const issues = checked.ok ? [] : checked.issues;
  const first = issues[0];
  const more = issues.length > 1 ? `, and ${plural(issues.length - 1, 'more problem')}` : '';
  throw notAPlan(file, first === undefined ? 'it does not match the plan schema' : `${first.line}:${first.col}: ${first.message}${more}`);
}

function notAPlan(file: string, why: string): RoleflowError {
  return new RoleflowError(`${file} is not a saved plan (${oneLine(why, 200)}): make one with roleflow plan --out FILE`);
}

function isPlanList(plan: Plan | readonly Plan[]): plan is readonly Plan[] {
  return Array.isArray(plan);
}

/**
 * The line saying the plan was not saved to `file` (at `abs`), and why. An older file of that name
 * is left as it is, but named, so that no reader takes it for this plan.
 */
export async function planNotSavedLine(abs: string, file: string, why: string): Promise<string> {
  const older = await stat(abs).then((s) => s.isFile(), () => false);
  return `The plan was not saved to ${file}: ${why}.${older ? ` ${file} was not written (an older ${file} is still there: it is not this plan).` : ''}`;
}
