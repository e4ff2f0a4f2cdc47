import { basename, isAbsolute, relative, resolve } from 'node:path';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { planSummaryLine, rolesDigest } from '../../core/plan/index.js';
import { shownUrl } from '../../core/text/printed-url.js';
import { quote, showName } from '../../core/roles/index.js';
import { reportGateReasons } from '../../core/tenants/index.js';
import type { Config } from '../../core/config/config.js';
import { currentCommit, treeState } from '../../files/git/git-commit.js';
import { flowsDirOf } from '../../files/flows/flow-files.js';
import { isRoleFileName, rolesDirOf } from '../../files/role-files.js';
import { isEmbedded } from '../../tenant/open-tenant.js';
import type { FreshPlan } from './fresh-plan.js';
import { readJsonReports } from '../read-reports.js';

/**
 * `promote`'s gate, before anything is sent to the tenant promoted to: every reason it is refused
 * (empty: it may go on). `from` must not be the embedded tenant (nothing else is checked then).
 * The report is read and judged (`reportGateReasons`) against the current commit; tenant `from` is
 * planned (`planFrom`, the single-tenant planning) and must have no change; in a git checkout, the
 * role files, flow tests and config must have no uncommitted change (outside one, `GITHUB_SHA`
 * names the commit and nothing is checked). Role files with problems stop it as they stop `plan`
 * (exit 1); so does a `from` tenant that cannot be listed.
 */
export async function promotionRefusals(opts: {
  cwd: string;
  env: Record<string, string | undefined>;
  config: Config;
  from: string;
  to: string;
  /** `--roles`: the folder of role files, when not the config's. */
  roles: string | undefined;
  reportFile: string;
  planFrom: () => Promise<FreshPlan>;
  /** A line for stderr that does not refuse the promotion (a GITHUB_SHA passed over). */
  warn: (line: string) => void;
}): Promise<string[]> {
  // The embedded tenant is started afresh for each command: a run of its tests says nothing of a real tenant.
  if (isEmbedded(opts.config, { tenant: opts.from })) {
    return [`tenant ${quote(opts.from)} is the embedded tenant, a stand-in started in-process: its tests cannot gate tenant ${quote(opts.to)} (promote from a configured tenant)`];
  }
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
    const { commit, unknown, warning, notCheckedOut } = await currentCommit(opts.cwd, opts.env);
    // A GITHUB_SHA that is not the commit checked out: the files judged here are not the commit named.
    if (notCheckedOut !== undefined) reasons.push(notCheckedOut);
    else if (warning !== undefined) opts.warn(warning);
    // The Roles the tests must have run against: those the role files give `from`, as the plan compares them.
    const { ignore } = opts.config.roles;
    const roles = { digest: rolesDigest(fresh.desired, ignore), ignore, unmanaged: plan.unmanaged.map((u) => u.name) };
    reasons.push(
      ...reportGateReasons(report, {
        from: opts.from,
        fromUrl: shownUrl(fresh.tenant.location),
        flowsDir: flowsDirOf(opts.cwd, opts.config, undefined).display,
        roles,
        commit,
        ...(unknown !== undefined && { commitUnknown: unknown }),
      }),
    );
  }
  reasons.push(...(await treeReasons(opts)));
  return reasons;
}

/**
 * In a git checkout, why the files roleflow reads are not the commit checked out: uncommitted
 * changes; ignored files that are read (role files `*.md` under the roles folder, flow tests
 * `*.yaml` / `*.yml` under the flows folder, the config); a source outside the checkout. Outside
 * a checkout, none (`GITHUB_SHA` names the commit).
 */
async function treeReasons(opts: { cwd: string; config: Config; roles: string | undefined }): Promise<string[]> {
  const { config, cwd } = opts;
  const sources: { path: string; reads: (name: string) => boolean }[] = [
    { path: rolesDirOf(cwd, config, opts.roles).abs, reads: isRoleFileName },
    { path: flowsDirOf(cwd, config, undefined).abs, reads: (name) => /\.ya?ml$/i.test(name) },
    ...(config.file === undefined ? [] : [{ path: resolve(cwd, config.file), reads: () => true }]),
  ];
  const uncommitted: string[] = [];
  const reasons: string[] = [];
  for (const source of sources) {
    const state = await treeState(cwd, [source.path]);
    if (state === undefined) return [];
    uncommitted.push(...state.uncommitted);
    for (const file of state.ignored.filter((f) => source.reads(basename(f)))) {
      reasons.push(`${showName(file)} is ignored by git, so no commit holds it: roleflow reads it; stop ignoring it and commit it (or remove it), test that commit, and promote it`);
    }
    for (const path of state.outside) {
      reasons.push(`${showName(relativeOrAbsolute(cwd, path))} is outside the git checkout, so no commit holds it: keep the role files, flow tests and config in the repository`);
    }
  }
  if (uncommitted.length > 0) reasons.unshift(uncommittedReason(uncommitted.sort()));
  return reasons;
}

/** A path as the user would give it from `cwd`: relative when under it, else absolute. */
function relativeOrAbsolute(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Files named in a refusal; `git status` has them all. */
const MAX_FILES = 5;

function uncommittedReason(files: readonly string[]): string {
  const named = files.slice(0, MAX_FILES).map(showName).join(', ');
  const more = files.length > MAX_FILES ? `, and ${files.length - MAX_FILES} more` : '';
  return `uncommitted changes to ${named}${more} (git status): the files here are not the commit the report speaks for; commit them, test that commit, and promote it`;
}
