import { execFile } from 'node:child_process';

/** A full or abbreviated git object name, nothing else: what a report may record as its commit. */
const COMMIT = /^[0-9a-f]{7,64}$/;

/**
 * The commit being tested or promoted: `$GITHUB_SHA` in a workflow, else `git rev-parse HEAD` in
 * `cwd`, else undefined (not a git checkout, or no git). Never throws: a report without a commit is
 * still a report, and `promote` refuses one.
 */
export async function currentCommit(cwd: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  const fromEnv = env['GITHUB_SHA']?.trim().toLowerCase();
  if (fromEnv) return COMMIT.test(fromEnv) ? fromEnv : undefined;
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd, timeout: 10_000, windowsHide: true }, (error, stdout) => {
      const sha = String(stdout).trim().toLowerCase();
      resolve(error === null && COMMIT.test(sha) ? sha : undefined);
    });
  });
}
