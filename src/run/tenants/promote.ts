import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { planSummaryLine } from '../../core/plan/index.js';
import { shownUrl } from '../../core/printed-url.js';
import { quote } from '../../core/roles/index.js';
import { reportGateReasons } from '../../core/tenants/index.js';
import { currentCommit } from '../../files/git-commit.js';
import type { FreshPlan } from '../plan.js';
import { readJsonReports } from '../read-reports.js';

/**
 * `promote`'s gate, before anything is sent to the tenant promoted to: every reason it is refused
 * (empty: it may go on). The report is read and judged (`reportGateReasons`) against the current
 * commit; tenant `from` is planned (`planFrom`, the single-tenant planning) and must have no
 * change. Role files with problems stop it as they stop `plan` (exit 1); so does a `from` tenant
 * that cannot be listed.
 */
export async function promotionRefusals(opts: {
  cwd: string;
  env: Record<string, string | undefined>;
  from: string;
  reportFile: string;
  planFrom: () => Promise<FreshPlan>;
  /** A line for stderr that does not refuse the promotion (a GITHUB_SHA passed over). */
  warn: (line: string) => void;
}): Promise<string[]> {
  const reasons: string[] = [];
  const report = await readJsonReports(opts.cwd, [opts.reportFile]).then(
    (read) => read[0]!.report,
    (error: unknown) => {
      if (!(error instanceof RoleflowError)) throw error;
      reasons.push(`${opts.reportFile} is not a JSON test report that can be read: ${error instanceof InvalidFilesError ? error.issues.map((i) => i.message).join('; ') : error.message}`);
      return undefined;
    },
  );
  const fresh = await opts.planFrom();
  await fresh.tenant.close();
  const { plan } = fresh;
  if (plan.issues.length > 0) throw new InvalidFilesError(plan.issues);
  if (plan.changes.length > 0) {
    reasons.push(`tenant ${quote(opts.from)} does not match the role files (${planSummaryLine(plan)}): apply them there and test again`);
  }
  if (report !== undefined) {
    const { commit, unknown, warning } = await currentCommit(opts.cwd, opts.env);
    if (warning !== undefined) opts.warn(warning);
    reasons.push(...reportGateReasons(report, { from: opts.from, fromUrl: shownUrl(fresh.tenant.location), commit, ...(unknown !== undefined && { commitUnknown: unknown }) }));
  }
  return reasons;
}
