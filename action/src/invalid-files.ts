import type { Issue } from '../../src/core/errors.js';
import { optionValue } from './inputs.js';
import { runRoleflow } from './roleflow.js';
import { repoPath, type StepContext } from './step.js';

/** At most this many annotations: GitHub shows only the first few per step anyway. */
const MAX_ANNOTATIONS = 50;

/**
 * After a command stopped with exit 1 and no result, ask `roleflow validate --json` (offline, the
 * same folders) which files are invalid, and annotate each problem at its line. Returns how many
 * problems it found; 0 means the failure was something else (the tenant, the config…).
 */
export async function annotateInvalidFiles(ctx: StepContext): Promise<number> {
  const argv = ['validate', '--json'];
  for (const flag of ['--config', '--roles']) {
    const value = optionValue(ctx.inputs.args, flag);
    if (value !== undefined) argv.push(flag, value);
  }
  const run = await runRoleflow(argv, { cwd: ctx.inputs.workingDirectory, env: ctx.kit.env, onStderrLine: () => undefined });
  const issues = issuesOf(run.stdout);
  annotateIssues(ctx, issues);
  return issues.length;
}

/** Each problem of a file as an annotation at its line (at most `MAX_ANNOTATIONS`, then a count). */
export function annotateIssues(ctx: StepContext, issues: readonly Issue[]): void {
  for (const issue of issues.slice(0, MAX_ANNOTATIONS)) {
    ctx.kit.error(issue.message, { file: repoPath(ctx, issue.file), line: issue.line, col: issue.col, title: 'roleflow: invalid file' });
  }
  if (issues.length > MAX_ANNOTATIONS) ctx.kit.error(`${issues.length - MAX_ANNOTATIONS} more problems in the files; see the log`);
}

/** The `issues` of `validate --json`; none when it printed something else. */
export function issuesOf(stdout: string): Issue[] {
  try {
    const value = JSON.parse(stdout) as { issues?: unknown };
    if (!Array.isArray(value.issues)) return [];
    return value.issues.filter(
      (i): i is Issue =>
        typeof i === 'object' && i !== null && typeof (i as Issue).file === 'string' && Number.isInteger((i as Issue).line) && Number.isInteger((i as Issue).col) && typeof (i as Issue).message === 'string',
    );
  } catch {
    return [];
  }
}
