import { join } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { judgeAgreement as agreementOf, parseJudgeCases, renderAgreementText, type JudgeAgreement, type JudgeCase } from '../../core/flows/judges/index.js';
import { ExitCode, type Ports } from '../ports.js';
import { openOneTenant, type TenantOptions } from '../tenants.js';
import type { JudgeRecord } from '../../core/flows/index.js';
import { flowsDirOf, FLOW_TEST_FILE, isFlowFileName, JUDGES_DIR } from '../../files/flows/flow-files.js';
import { loadSchema } from '../../files/package-root.js';
import { dirExists, listFilesUnder, loadTextFiles } from '../../files/source-files.js';
import type { OpenTenant } from '../../tenant/open-tenant.js';
import { prepareAssertions } from './test-session.js';
import { JudgeRunner } from './judges.js';

/**
 * `roleflow test --judges`: every labelled output of `flows/_judges/*.yaml` judged on `tenant` by
 * the judge it names, and how often each judge agrees with its labels. Files with a problem stop
 * it before anything is sent.
 */
export async function judgeAgreementRun(opts: { cwd: string; config: Config; tenant: OpenTenant; env: Record<string, string | undefined>; signal?: AbortSignal }): Promise<JudgeAgreement[]> {
  const flows = flowsDirOf(opts.cwd, opts.config, undefined);
  const dir = { ...flows, abs: join(flows.abs, JUDGES_DIR), display: `${flows.display}/${JUDGES_DIR}` };
  if (!(await dirExists(dir))) throw new RoleflowError(`no judge cases: folder ${dir.display}/ not found (each *.yaml there labels outputs good or bad for one judge)`);
  const schema = loadSchema('judge-cases');
  const judges = Object.keys(opts.config.judges);
  const sources = await listFilesUnder(opts.cwd, dir.abs, isFlowFileName);
  const loaded = await loadTextFiles(sources, FLOW_TEST_FILE, (text, file) => parseJudgeCases(text, file, schema, judges));
  if (loaded.issues.length > 0) throw new InvalidFilesError(loaded.issues);
  const cases: JudgeCase[] = loaded.values.flat();
  if (cases.length === 0) throw new RoleflowError(`no judge cases in ${dir.display}/`);
  // The judges' prompt Roles, as `test` reads them for judge assertions.
  const roles = (await prepareAssertions(opts.cwd, opts.config, [], { update: false, env: opts.env, tenant: opts.tenant.target.name, readOnly: true, judgeRoles: true })).judgeRoles;
  const runner = new JudgeRunner({
    client: opts.tenant.client,
    judges: opts.config.judges,
    roleContent: (role) => roles.get(role) ?? '',
    hasWs: opts.tenant.target.wsUrl !== undefined,
    ...(opts.signal && { signal: opts.signal }),
  });
  const judged: { case: JudgeCase; record: JudgeRecord }[] = [];
  for (const c of cases) judged.push({ case: c, record: await runner.verdictOn(c.spec, c.output) });
  return agreementOf(judged);
}

/** `test --judges`: the agreement of each judge on the tenant, as text or `--json`; exit 3 when one disagrees with a label. */
export async function judgeAgreement(options: TenantOptions & { json: boolean }, ports: Ports, config: Config): Promise<number> {
  const tenant = await openOneTenant(ports, config, options, 'test');
  try {
    const agreements = await judgeAgreementRun({ cwd: ports.cwd, config, tenant, env: ports.env });
    if (options.json) ports.output.json({ format_version: 1, tenant: tenant.target.name, judges: agreements });
    else ports.output.out(renderAgreementText(agreements));
    return agreements.every((a) => a.agreed === a.cases) ? ExitCode.Ok : ExitCode.TestsFailed;
  } finally {
    await tenant.close();
  }
}
