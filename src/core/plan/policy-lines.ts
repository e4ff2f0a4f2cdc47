import type { Plan, PlanFinding } from './types.js';

/**
 * A plan's policy findings as lines for people (the text plan, the pull-request comment): the
 * level, the rule and message, and what happens — allowed by an `--allow`, refused (with the
 * override to give, bound to the fingerprint of this content), or only a warning.
 */
export function policyLines(plan: Pick<Plan, 'policy'>): string[] {
  return (plan.policy ?? []).map((f) => `${f.level} ${f.rule}: ${f.message} — ${outcome(f)}`);
}

function outcome(f: PlanFinding): string {
  if (f.level === 'warn') return 'a warning';
  if (f.level === 'hard') return 'refused (hard: no override)';
  if (f.allowed) return 'allowed by --allow';
  return `refused unless --allow ${f.rule}${f.role === undefined ? '' : `:${f.role}`}@${f.fingerprint.replace(/^sha256:/, '').slice(0, 12)}`;
}
