import { writeFileSync } from 'node:fs';
import { DRIFT_FOUND, driftIssue, isDriftError, renderDriftText, type DriftDocument, type TenantDrift } from '../../src/core/apply/history/drift/index.js';
import { failureMarkdown, fitSummary, mdCode } from './markdown.js';
import { mdText } from '../../src/core/plan/render/markdown-parts.js';
import type { RoleflowRun } from './roleflow.js';
import { markerLine } from './sticky-comment.js';
import { commentFooter, exitOutcome, roleflow, tempFileFor, type StepContext, type StepOutcome } from './step.js';

/**
 * `command: drift`. roleflow classifies each Role in-process (`roleflow drift --json`, read-only);
 * the result goes to the log, the job summary and `drift-file`. With `notify: issue`, each
 * tenant's issue is opened while anything drifted, kept up to date, and closed once nothing has
 * (found again by its marker, `<!-- roleflow:drift:TENANT -->`). Exit 5 (drift, with
 * `--detailed-exitcode`), 1 and 4 fail the step; 2 (pending changes only) does not.
 */
export async function driftStep(ctx: StepContext): Promise<StepOutcome> {
  const { kit, inputs } = ctx;
  const notify = inputs.notify === 'issue';
  const run = await roleflow(ctx, ['drift', '--json', ...(notify ? ['--notify', 'issue'] : [])], { streamStdout: false, tenantCommand: true });
  const outcome = exitOutcome(ctx, 'drift', run.code, [1, 4, 5]);
  const doc = parseDrift(run, (value) => kit.redactValues(value));
  if (doc === undefined) {
    await kit.appendSummary(failureMarkdown({ heading: `### roleflow drift — tenant ${mdCode(ctx.tenant)}`, what: '`roleflow drift`', code: run.code, stderr: kit.redact(run.stderr) }));
    return outcome;
  }
  const file = tempFileFor(ctx, 'drift');
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  kit.setOutput('drift-file', file);
  const tenants = doc.tenants.filter((t): t is TenantDrift => !isDriftError(t));
  const count = (found: (status: string) => boolean): number => tenants.reduce((n, t) => n + t.roles.filter((r) => found(r.status)).length, 0);
  kit.setOutput('drifted', count((s) => DRIFT_FOUND.has(s as never)));
  kit.setOutput('pending', count((s) => s === 'pending'));
  await kit.untrusted(() => kit.info(renderDriftText(doc)));
  const footer = commentFooter(ctx, 'drift');
  // Each tenant as its issue says it (the body is short: it lists at most 200 Roles); a tenant not asked, what stopped it.
  const sections = doc.tenants.map((t) => (isDriftError(t) ? `### roleflow drift — tenant ${mdCode(t.tenant)}\n\nCould not be asked: ${mdText(t.error.message)}\n` : driftIssue(t).body));
  await kit.appendSummary(fitSummary((maxChars) => sections.join('\n').slice(0, maxChars)));
  if (notify) for (const t of tenants) if (t.issue !== undefined) await notifyIssue(ctx, t.tenant, { ...t.issue, body: kit.redact(`${t.issue.body}\n${footer}`) });
  return outcome;
}

/** Open, update or close tenant `tenant`'s issue; a refusing or failing GitHub API is a warning, the drift result stands. */
async function notifyIssue(ctx: StepContext, tenant: string, issue: { marker: string; title: string; body: string; open: boolean }): Promise<void> {
  const { kit } = ctx;
  const repository = kit.env['GITHUB_REPOSITORY'];
  if (!repository || ctx.inputs.githubToken === '') {
    kit.warning(`No drift issue for tenant ${tenant}: ${repository ? 'the github-token input is empty' : 'GITHUB_REPOSITORY is not set'}.`);
    return;
  }
  const { GitHubApiError, GitHubClient } = await import('./github.js');
  const client = new GitHubClient(kit.env['GITHUB_API_URL'] || 'https://api.github.com', ctx.inputs.githubToken, { info: (t) => kit.info(t), debug: (t) => kit.debug(t) });
  try {
    const line = markerLine(issue.marker);
    const existing = await client.findOpenIssue(repository, (i) => typeof i.body === 'string' && i.body.trimStart().startsWith(line));
    if (issue.open) {
      const done = existing === undefined ? await client.createIssue(repository, issue.title, issue.body) : await client.updateIssue(repository, existing.number, { title: issue.title, body: issue.body });
      kit.info(`${existing === undefined ? 'Opened' : 'Updated'} the drift issue of tenant ${tenant}: #${done.number}${done.html_url ? ` ${done.html_url}` : ''}`);
    } else if (existing !== undefined) {
      await client.updateIssue(repository, existing.number, { body: issue.body, state: 'closed' });
      kit.info(`Closed the drift issue of tenant ${tenant}: #${existing.number} (nothing drifted any more)`);
    }
  } catch (err) {
    const hint = err instanceof GitHubApiError && (err.status === 403 || err.status === 404) ? ' (the job needs `permissions: issues: write`)' : '';
    kit.warning(`Could not update the drift issue of tenant ${tenant}: ${err instanceof Error ? err.message : String(err)}${hint}. The drift result is unaffected.`);
  } finally {
    await client.close();
  }
}

/** The JSON roleflow printed; undefined when it stopped before classifying. */
function parseDrift(run: RoleflowRun, redactValues: <T>(value: T) => T): DriftDocument | undefined {
  try {
    const value = JSON.parse(run.stdout) as Partial<DriftDocument>;
    return value.format_version === 1 && Array.isArray(value.tenants) ? redactValues(value as DriftDocument) : undefined;
  } catch {
    return undefined;
  }
}
