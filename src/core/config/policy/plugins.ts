import type { FlowTestFile } from '../../flows/index.js';
import type { Plan, PlanFinding } from '../../plan/types.js';
import type { RoleFile } from '../../roles/index.js';
import { fingerprintOf } from './plan-rules.js';
import { LEVELS, type Finding, type Level } from './types.js';

/**
 * A policy plugin (`policy.plugins: [./policies/x.mjs]`): an ES module whose default export is a
 * function, called once by `lint` with the parsed files and once per tenant's plan by `plan`,
 * `apply` and `promote`, returning findings (or a promise of them). It may ignore the kind it has
 * nothing to say about by returning `[]`.
 *
 *   export default function (input) {
 *     if (input.kind !== 'files') return [];
 *     return input.roles.filter((r) => /https?:\/\//.test(r.content)).map((r) => ({
 *       rule: 'no-urls', level: 'error', file: r.file, line: r.contentLine, column: 1, message: 'a URL in a Role',
 *     }));
 *   }
 *
 * `files`: `{kind, roles: RoleFile[], flows: FlowTestFile[]}` (role files with `file`, `name`,
 * `description`, `content`, `contentLine`; flow files as `roleflow test` loads them). `plan`:
 * `{kind, tenant, plan}` (the plan JSON of `schemas/plan.schema.json`). A finding is
 * `{rule, message, level?: 'warn'|'error'|'hard' (default error), file?, line?, column?}`, and for
 * a plan `role?` (the Role it is about, which an `--allow RULE:ROLE` names).
 */
export type PluginInput = { kind: 'files'; roles: readonly RoleFile[]; flows: readonly FlowTestFile[] } | { kind: 'plan'; tenant: string; plan: Plan };

export type PolicyPlugin = (input: PluginInput) => unknown;

interface RawFinding {
  rule?: unknown;
  level?: unknown;
  message?: unknown;
  file?: unknown;
  line?: unknown;
  column?: unknown;
  role?: unknown;
}

/** What a plugin returned, as findings of lint; anything else is one line naming the plugin. */
export function lintPluginFindings(plugin: string, returned: unknown): Finding[] | string {
  const checked = checkFindings(plugin, returned);
  if (typeof checked === 'string') return checked;
  return checked.map((f) => ({
    rule: f.rule,
    level: f.level,
    file: typeof f.raw.file === 'string' ? f.raw.file : plugin,
    line: positive(f.raw.line),
    column: positive(f.raw.column),
    message: f.message,
  }));
}

/** What a plugin returned for one tenant's plan, as plan findings (fingerprinted as the built-in ones). */
export function planPluginFindings(plugin: string, plan: Plan, returned: unknown): PlanFinding[] | string {
  const checked = checkFindings(plugin, returned);
  if (typeof checked === 'string') return checked;
  return checked.map((f) => {
    const role = typeof f.raw.role === 'string' ? f.raw.role : undefined;
    const change = plan.changes.find((c) => c.name === role);
    const content = JSON.stringify(change ? [change.action, change.before ?? null, change.after ?? null] : plan.changes.map((c) => [c.action, c.name, c.after ?? null]));
    const finding: PlanFinding = { rule: f.rule, level: f.level, message: f.message, tenant: plan.tenant.name, fingerprint: fingerprintOf(f.rule, role, content) };
    if (role !== undefined) finding.role = role;
    if (change?.file !== undefined) finding.file = change.file;
    return finding;
  });
}

function checkFindings(plugin: string, returned: unknown): { rule: string; level: Level; message: string; raw: RawFinding }[] | string {
  if (returned === undefined || returned === null) return [];
  if (!Array.isArray(returned)) return `policy plugin ${plugin} returned ${typeof returned}, not a list of findings`;
  const out: { rule: string; level: Level; message: string; raw: RawFinding }[] = [];
  for (const [i, item] of returned.entries()) {
    const raw = (item ?? {}) as RawFinding;
    if (typeof raw.rule !== 'string' || raw.rule === '' || typeof raw.message !== 'string') {
      return `policy plugin ${plugin}: finding ${i + 1} needs a rule and a message (strings)`;
    }
    const level = raw.level ?? 'error';
    if (!LEVELS.includes(level as Level)) return `policy plugin ${plugin}: finding ${i + 1} has level ${JSON.stringify(level)}, not warn, error or hard`;
    out.push({ rule: raw.rule, level: level as Level, message: raw.message, raw });
  }
  return out;
}

function positive(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;
}
