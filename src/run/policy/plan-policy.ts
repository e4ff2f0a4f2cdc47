import type { Config } from '../../core/config/config.js';
import { RoleflowError } from '../../core/errors.js';
import type { Plan } from '../../core/plan/index.js';
import { applyAllows, findingGuard, planFindings, planPluginFindings, recordedAllows, refusingFindings, withPlanPolicy, type Allow, type PlanFinding } from '../../core/config/policy/index.js';
import { callPlugin, loadPolicyPlugins } from '../../files/policy-plugins.js';

/**
 * `policy.plan` and the plugins over a fresh plan (`withPlanPolicy`): findings in `plan.policy`,
 * the refusing ones as guards; returns the notes of the `--allow`s.
 */
export async function withPolicy(cwd: string, config: Config, plan: Plan, allows: readonly Allow[]): Promise<string[]> {
  const more: PlanFinding[] = [];
  for (const plugin of config.policy.plugins.length > 0 ? await loadPolicyPlugins(cwd, config) : []) {
    const found = planPluginFindings(plugin.name, plan, await callPlugin(plugin, { kind: 'plan', tenant: plan.tenant.name, plan }));
    if (typeof found === 'string') throw new RoleflowError(found, 'config');
    more.push(...found);
  }
  return withPlanPolicy(plan, config.policy.plan, allows, undefined, more);
}

/**
 * Why today's `policy.plan` refuses a saved plan (`apply PLANFILE`): its refusing findings over
 * the saved changes, where an error one counts as allowed when the plan recorded it so (its
 * fingerprint: the same rule, Role and content) or an `--allow` given now names it.
 */
export function savedPlanPolicyRefusals(plan: Plan, config: Config, allows: readonly Allow[] = []): string[] {
  const { findings } = applyAllows(planFindings(plan, config.policy.plan), allows, recordedAllows(plan));
  return refusingFindings(findings).map((f) => `today's policy refuses it: ${findingGuard(f).message.replace(/^policy /, '')}`);
}
