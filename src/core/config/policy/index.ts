/**
 * Lint and policy, the pure core (PRODUCT.md "Lint and policy"). No file system, no network:
 * `run/lint.ts` reads the files and the plugins, `run/plan.ts` hands the plan over.
 *
 * - `parsePolicy(raw)` — the config's `policy:` (via `parseConfig`), patterns compiled.
 * - `lintRoleFile(role, policy.roles, scanner)`, `lintFlowFile(file, policy.flows, source?)` →
 *   `Finding[]` at file:line:column. `secretScanner(env, config)` finds key formats and the
 *   run's secret values in any text: a secret in a Role is always an error.
 * - `renderLintText`, `renderLintJson` (`schemas/lint.schema.json`), `renderLintSarif` (SARIF 2.1.0).
 * - Plans: `withPlanPolicy(plan, rules, allows, recorded?)` puts `policy[]` in the plan and makes
 *   each refusing finding a guard (exit 4); `parseAllow('RULE[:ROLE][@FP]')`; fingerprints bind
 *   an override to the content it was given for.
 */
export * from './types.js';
export { compilePolicyPattern, compileWholePattern, matchesOf } from './pattern.js';
export { parsePolicy, type RawPolicy, type PointedIssue } from './parse.js';
export { secretScanner, type SecretHit, type SecretScanner } from './secrets.js';
export { lintRoleFile, offsetPosition } from './role-rules.js';
export { lintFlowFile } from './flow-rules.js';
export { LINT_FORMAT_VERSION, renderLintJson, renderLintSarif, renderLintText, sortFindings } from './render.js';
export {
  applyAllows,
  changedLinesPct,
  findingGuard,
  fingerprintOf,
  parseAllow,
  planFindings,
  recordedAllows,
  refusingFindings,
  shortFingerprint,
  withPlanPolicy,
  type Allow,
} from './plan-rules.js';
export { lintPluginFindings, planPluginFindings, type PluginInput, type PolicyPlugin } from './plugins.js';
export { planSecretPlaces, secretFields } from './plan-secrets.js';
export { renderedSecretIssues, roleSecretIssues } from './role-secrets.js';
