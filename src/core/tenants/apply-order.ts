import type { ApplyRunStatus } from '../apply/index.js';
import { showName } from '../roles/display.js';

/** How one tenant of a run over several ended. */
export interface TenantStep {
  tenant: string;
  status: ApplyRunStatus;
}

const SAID: Record<ApplyRunStatus, string> = {
  applied: 'applied',
  no_changes: 'no changes',
  failed: 'failed',
  interrupted: 'interrupted',
  refused: 'refused (nothing sent to it)',
  cancelled: 'cancelled',
};

/**
 * The closing line of an apply over several tenants, in the order they were taken:
 * `Tenants: staging applied; production refused (nothing sent to it); not attempted: qa.`
 */
export function tenantsApplyLine(steps: readonly TenantStep[], notAttempted: readonly string[]): string {
  const parts = steps.map((s) => `${showName(s.tenant)} ${SAID[s.status]}`);
  if (notAttempted.length > 0) parts.push(`not attempted: ${notAttempted.map(showName).join(', ')}`);
  return `Tenants: ${parts.join('; ')}.`;
}
