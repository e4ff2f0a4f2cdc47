import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { renderPreviewMarkdown, type PreviewDocument } from '../../src/core/preview/index.js';
import { failureMarkdown, fitSummary, GITHUB_COMMENT_LIMIT, mdCode } from './markdown.js';
import type { RoleflowRun } from './roleflow.js';
import { commentFooter, exitOutcome, inWorkingDirectory, postComment, repoPath, roleflow, tempFileFor, type StepContext, type StepOutcome } from './step.js';

/**
 * `command: preview`. roleflow previews the pull request's Roles on the preview tenant in-process
 * (`roleflow preview --json`): the base is the `base` input, else the pull request's base commit.
 * The behaviour diff goes to the job summary and the sticky comment's "Behaviour diff" section;
 * the JSON is kept (`preview-file`). Exit 1 and 4 fail the step, and 3 with `fail-on-regression`.
 */
export async function previewStep(ctx: StepContext): Promise<StepOutcome> {
  const { kit } = ctx;
  const base = ctx.inputs.base || ctx.pullRequest?.baseSha;
  if (base === undefined || base === '') {
    return { failure: 'command: preview needs a base: the input "base" (a git ref), or a pull_request event whose base commit it takes' };
  }
  const html = ctx.inputs.htmlReport === '' ? undefined : inWorkingDirectory(ctx, ctx.inputs.htmlReport);
  if (html !== undefined) rmSync(html, { force: true });
  const argv = ['preview', '--json', '--base', base, ...(html === undefined ? [] : ['--reporter', `html=${html}`]), ...(ctx.inputs.failOnRegression ? ['--fail-on-regression'] : [])];
  const run = await roleflow(ctx, argv, { streamStdout: false, tenantCommand: true });
  const outcome = exitOutcome(ctx, 'preview', run.code, [1, 3, 4]);
  const doc = documentOf(run, (value) => kit.redactValues(value));
  if (doc !== undefined) {
    const file = tempFileFor(ctx, 'preview');
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    kit.setOutput('preview-file', file);
    kit.setOutput('regressions', doc.summary.regressions);
    await kit.appendSummary(fitSummary((maxChars) => renderPreviewMarkdown(doc, { maxChars })));
  } else {
    await kit.appendSummary(failed(ctx, run));
  }
  if (html !== undefined && existsSync(html)) {
    kit.setOutput('html-report', html);
    await kit.appendSummary(`Both sides side by side: ${mdCode(repoPath(ctx, html))} (the step's \`html-report\` output): keep it with actions/upload-artifact.\n`);
  }
  const footer = commentFooter(ctx, 'preview');
  await postComment(ctx, 'preview', (marker) => {
    const body = doc === undefined ? failed(ctx, run) : renderPreviewMarkdown(doc, { marker, maxChars: GITHUB_COMMENT_LIMIT - footer.length - 1 });
    return kit.redact(`${body}\n${footer}`);
  });
  return outcome;
}

/** The JSON roleflow printed; undefined when it stopped before comparing. */
function documentOf(run: RoleflowRun, redactValues: <T>(value: T) => T): PreviewDocument | undefined {
  try {
    const value = JSON.parse(run.stdout) as Partial<PreviewDocument>;
    return value.format_version === 1 && Array.isArray(value.tests) && value.summary !== undefined ? redactValues(value as PreviewDocument) : undefined;
  } catch {
    return undefined;
  }
}

function failed(ctx: StepContext, run: RoleflowRun): string {
  return failureMarkdown({ heading: `### Behaviour diff — tenant ${mdCode(ctx.tenant)}`, what: '`roleflow preview`', code: run.code, stderr: ctx.kit.redact(run.stderr) });
}
