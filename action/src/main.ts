import { tmpdir } from 'node:os';
import { DEFAULT_TOKEN_ENV, defaultConfig, type Config } from '../../src/core/config/config.js';
import { isSecretVariable } from '../../src/core/text/redact.js';
import { loadConfig } from '../../src/files/config-file.js';
import { tenantNameOf } from '../../src/tenant/open-tenant.js';
import { optionValue, readInputs, type ActionCommand, type ActionInputs } from './inputs.js';
import { pullRequestOf } from './sticky-comment.js';
import { isSeveral, severalTenantsName } from './tenants/tenant-inputs.js';
import type { StepContext, StepOutcome } from './step.js';
import { ActionInputError, Toolkit } from './toolkit.js';

type Step = (ctx: StepContext) => Promise<StepOutcome>;

/**
 * Each command's step, imported when that command runs: the bundle runs no other command's code
 * (nor what only it imports) at start-up.
 */
const STEPS: Record<ActionCommand, (several: boolean) => Promise<Step>> = {
  plan: async (several) => (several ? (await import('./tenants/plan-tenants.js')).planTenantsStep : (await import('./plan-step.js')).planStep),
  apply: async () => (await import('./apply-step.js')).applyStep,
  test: async () => (await import('./test-step.js')).testStep,
  merge: async () => (await import('./test-step.js')).mergeStep,
  promote: async () => (await import('./tenants/promote-step.js')).promoteStep,
  preview: async () => (await import('./preview-step.js')).previewStep,
  drift: async () => (await import('./drift-step.js')).driftStep,
};

/**
 * The Action's work, called by `index.ts` (bundled into action/dist/index.js). Returns the process exit code: 1 when
 * the step fails. The outputs, the summary and the comment are written whatever the result.
 */
export async function run(): Promise<number> {
  const kit = new Toolkit();
  try {
    const inputs = readInputs(kit);
    const config = await readConfig(inputs.workingDirectory, inputs.args, kit.env);
    maskTenantTokens(kit, config);
    const ctx: StepContext = {
      kit,
      inputs,
      tenant: tenantName(inputs, config, kit.env),
      workspace: kit.env['GITHUB_WORKSPACE'] || process.cwd(),
      tempDir: kit.env['RUNNER_TEMP'] || tmpdir(),
      pullRequest: pullRequestOf(kit.env),
    };
    const step = await STEPS[inputs.command](isSeveral(inputs.tenants));
    const outcome: StepOutcome = await step(ctx);
    if (outcome.failure === undefined) return 0;
    kit.setFailed(outcome.failure);
    return 1;
  } catch (err) {
    if (err instanceof ActionInputError) kit.setFailed(err.message);
    else kit.setFailed(`roleflow action: internal error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** The project's config, for the token names and the tenant; roleflow reports a broken one itself. */
async function readConfig(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<Config | undefined> {
  try {
    return await loadConfig(cwd, optionValue(args, '--config'), env);
  } catch {
    return undefined;
  }
}

/**
 * The tenant tokens roleflow reads from the environment (`ROLEFLOW_TOKEN` and each tenant's
 * `token_env`), and every variable the CLI treats as a secret (`isSecretVariable`), are masked in
 * the log before roleflow runs, whatever the workflow called them.
 */
function maskTenantTokens(kit: Toolkit, config: Config | undefined): void {
  const names = new Set([DEFAULT_TOKEN_ENV]);
  for (const tenant of Object.values(config?.tenants ?? {})) names.add(tenant.tokenEnv);
  for (const name of Object.keys(kit.env)) if (isSecretVariable(name)) names.add(name);
  for (const name of names) kit.setSecret(kit.env[name]);
}

/**
 * The tenant roleflow will talk to, named as roleflow names it (src/tenant/open-tenant.ts), so the
 * comment's marker is the same whether the command succeeds or stops early.
 */
function tenantName(inputs: ActionInputs, config: Config | undefined, env: Record<string, string | undefined>): string {
  if (inputs.promote !== undefined) return inputs.promote.to;
  if (isSeveral(inputs.tenants)) return severalTenantsName(inputs.tenants);
  return tenantNameOf(config ?? defaultConfig(), {
    tenant: inputs.tenants.names[0] ?? optionValue(inputs.args, '--tenant') ?? (env['ROLEFLOW_TENANT'] || undefined),
    baseUrl: optionValue(inputs.args, '--base-url'),
  });
}
