import { safeText } from '../../core/safe-text.js';
import { resolve } from 'node:path';
import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { PlanningCommand } from './planning.js';
import type { Config } from '../../core/config.js';
import { InvalidFilesError, RoleflowError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import type { Plan, PlanOptions, TenantPlanEntry } from '../../core/plan/index.js';
import { quote } from '../../core/roles/display.js';

export class PlanCommand extends PlanningCommand {
  static override paths = [['plan']];
  static override usage = Command.Usage({
    category: 'Roles as code',
    description: 'Show what apply would change on the tenant (read-only)',
    details: `
      Reads every role file (\`roles/**/*.md\`; a problem in any of them stops here with
      \`file:line:col\` lines and exit 1), lists the tenant's Roles once, and prints the plan:
      \`+\` create, \`~\` update (with a diff of the content), \`-\` delete, then a
      \`Plan: N to create, N to update, N to delete.\` line. Nothing is changed.

      The files are rendered for the tenant first: \`\${vars.NAME}\` in a description or content is
      the tenant's value (\`vars:\` and \`tenants.<name>.vars:\` in the config; an undeclared one
      stops here, located), and a file whose front-matter \`tenants:\` does not match the tenant is
      left out (its Role there is unmanaged, or deleted with prune; a note says why).

      Remote Roles without a role file are listed as unmanaged, or deleted with \`--prune\` (or
      \`roles.prune: true\`; \`--no-prune\` overrides the config). \`roles.protect\` globs refuse any
      update or delete of matching Roles and more deletes than \`roles.max_deletes\` refuse the
      plan: both exit 4. So does prune when there are no role files at all (it would delete every
      Role: an empty or mistyped roles folder?) unless \`--allow-empty-prune\` (or
      \`roles.allow_empty_prune: true\`). \`roles.ignore\` globs are left out entirely.

      \`--out FILE\` saves the plan as JSON for \`roleflow apply FILE\`, which carries out exactly it
      and refuses (exit 4) if the tenant changed in between, if the file was altered (the plan
      ends with a \`digest\` of its contents), or if the config's guards refuse it by then. \`--format markdown\` writes a pull-request
      comment; \`--json\` is \`--format json\`. \`--detailed-exitcode\` exits 2 when there are changes.

      Several tenants (\`--tenant\` more than once, or \`--all-tenants\`: every configured tenant but
      the embedded \`local\`): each is listed (a few at once) and planned as if alone. Text has a
      section per tenant and a line each at the end; markdown is one comment, a summary table then
      a section per tenant, within GitHub's limit; JSON (and \`--out\`) is
      \`{format_version, tenants: [<plan>…], digest}\`, which \`apply\` carries out tenant by tenant in
      that order. \`--detailed-exitcode\` exits 2 when any tenant has changes; guards refusing any
      tenant's plan exit 4. A tenant that cannot be listed (unreachable, refusing the token) does
      not hide the others: its section (markdown row, JSON \`{tenant, error}\` entry) says why, the
      error names it, and the run exits 1 without saving \`--out\` (an older file of that name is
      left as it was, and said not to be this plan).
    `,
    examples: [
      ['Plan against the default tenant', 'roleflow plan'],
      ['Plan deletes of Roles without a file, and save the plan for review', 'roleflow plan --prune --out plan.json'],
      ['In CI: did anything drift? (0 = no, 2 = yes)', 'roleflow plan --tenant staging --detailed-exitcode'],
      ['The same files, rendered with production\'s variables', 'roleflow plan --tenant production'],
      ['A pull-request comment', 'roleflow plan --format markdown > plan.md'],
      ['Only some Roles (a partial plan)', 'roleflow plan --target support-agent --target "billing-*"'],
      ['Only the Roles of these files', 'roleflow plan roles/support-agent.md roles/billing.md'],
      ['Every tenant in one pull-request comment', 'roleflow plan --all-tenants --format markdown > plan.md'],
      ['Nightly drift check of every tenant (0 = none, 2 = some tenant drifted)', 'roleflow plan --all-tenants --detailed-exitcode'],
      ['Save the plan of two tenants, applied in this order', 'roleflow plan --tenant staging --tenant production --out plan.json'],
    ],
  });

  roleFiles = Option.Rest({ name: 'ROLEFILE' });
  // Not `out`: that is the base class's way of printing.
  outFile = Option.String('--out', { description: 'Save the plan as JSON for `roleflow apply FILE`' });
  json = Option.Boolean('--json', false, { description: 'Print the plan as JSON (same as --format json)' });
  format = Option.String('--format', { description: 'text (default), json or markdown', validator: t.isEnum(['text', 'json', 'markdown'] as const) });
  detailedExitcode = Option.Boolean('--detailed-exitcode', false, { description: 'Exit 2 when the plan has changes, 0 when it has none' });

  async execute(): Promise<number> {
    if (this.json && this.format !== undefined && this.format !== 'json') {
      throw new RoleflowError(`--json and --format ${this.format} ask for different outputs: use one of them`);
    }
    if (this.outFile === '-') {
      throw new RoleflowError('--out -: a saved plan must be a file; use --json to print the plan on stdout');
    }
    const format = this.json ? 'json' : (this.format ?? 'text');
    const plans = await import('../../core/plan/index.js');
    const config = await this.loadConfig();
    const several = await this.severalTenants(config);
    if (several !== undefined) return this.planTenants(config, several, format);
    // Secrets are masked in the plan's values, then it is serialised: never masked as text, which
    // could turn a key that holds a short secret into something no program reads.
    const show = (plan: Plan, rolesDir: string): void => {
      if (format === 'json') this.io.outDataBytes(plan, (p, redactor) => plans.planJsonBytes(p, { redactor }));
      else if (format === 'markdown') this.io.out(plans.renderPlanMarkdown(plan));
      else this.io.out(plans.renderPlanText(plan, { color: this.colorFor('stdout'), rolesDir }));
    };
    let fresh;
    try {
      fresh = await this.freshPlanOf(config, this.roleFiles);
    } catch (error) {
      // Role files that cannot be read: JSON and markdown readers get the problems in their format too.
      if (error instanceof InvalidFilesError && format !== 'text') show(plans.unreadablePlan(error.issues, this.unreadableOptions(config)), '');
      throw error;
    }
    const { plan, tenant, rolesDir } = fresh;
    await tenant.close();
    if (plan.issues.length > 0) {
      if (format !== 'text') show(plan, '');
      throw new InvalidFilesError(plan.issues);
    }
    show(plan, `${rolesDir.display}/`);

    if (plan.guards.length > 0) {
      for (const guard of plan.guards) this.io.err(`error: ${guard.message}`);
      await this.notSaved('guards refuse it');
      return ExitCode.Refused;
    }
    const outFile = this.outFile;
    if (outFile !== undefined) {
      const { savePlan } = await import('../../files/plan-file.js');
      await savePlan(resolve(this.context.cwd, outFile), plan);
      // A plan of a tenant given by --base-url/--ws-url goes there only when told again.
      const { shownUrl } = await import('../../core/printed-url.js');
      const where = [this.baseUrl !== undefined && ` --base-url ${shownUrl(this.baseUrl)}`, this.wsUrl !== undefined && ` --ws-url ${shownUrl(this.wsUrl)}`].filter((f) => f !== false).join('');
      this.io.err(`Saved the plan to ${safeText(outFile)}. To carry out exactly this plan: roleflow apply ${safeText(outFile)}${where}`);
    }
    return this.detailedExitcode && plans.planHasChanges(plan) ? ExitCode.Changes : ExitCode.Ok;
  }

  /**
   * A run over several tenants: each planned as one is (listed a few at once), shown as one
   * document — a section per tenant, one markdown comment, one JSON document — and saved as one
   * plan that `apply` carries out tenant by tenant. Exit 4 when guards refuse any tenant's plan;
   * `--detailed-exitcode` exits 2 when any has changes.
   */
  private async planTenants(config: Config, names: string[], format: 'text' | 'json' | 'markdown'): Promise<number> {
    const plans = await import('../../core/plan/index.js');
    const show = (list: TenantPlanEntry[], rolesDir: string): void => {
      if (format === 'json') this.io.outData(list, plans.renderTenantPlansJson);
      else if (format === 'markdown') this.io.out(plans.renderTenantPlansMarkdown(list));
      else this.io.out(plans.renderTenantPlansText(list, { color: this.colorFor('stdout'), rolesDir }));
    };
    let fresh;
    try {
      fresh = await this.freshPlansOf(config, this.roleFiles, names);
    } catch (error) {
      if (error instanceof InvalidFilesError && format !== 'text') show(names.map((n) => plans.unreadablePlan(error.issues, this.unreadableOptions(config, n))), '');
      throw error;
    }
    const { tenantError } = await import('../../core/tenants/index.js');
    const list: TenantPlanEntry[] = [];
    const failed: string[] = [];
    let rolesDir = '';
    for (const entry of fresh) {
      if ('fresh' in entry) {
        await entry.fresh.tenant.close();
        list.push(entry.fresh.plan);
        rolesDir = `${entry.fresh.rolesDir.display}/`;
        continue;
      }
      // One tenant that cannot be listed does not hide the others' plans: its entry says why.
      const baseUrl = plans.planBaseUrl(entry.location ?? config.tenants[entry.name]?.baseUrl ?? '');
      list.push({ tenant: { name: entry.name, base_url: baseUrl }, error: { code: entry.error.code, message: entry.error.message } });
      failed.push(`error: ${tenantError(entry.name, entry.error).message}`);
    }
    const issues = [...new Map(list.flatMap((p) => ('issues' in p ? p.issues : [])).map((i) => [JSON.stringify(i), i])).values()];
    if (issues.length > 0) {
      if (format !== 'text') show(list, '');
      throw new InvalidFilesError(issues);
    }
    show(list, rolesDir);
    if (failed.length > 0) {
      this.io.err(failed.join('\n'));
      await this.notSaved(`${failed.length === 1 ? 'a tenant was' : `${failed.length} tenants were`} not planned`);
      return ExitCode.Error;
    }
    const planned = list.filter((p): p is Plan => !plans.isTenantPlanError(p));
    const refused = planned.filter((p) => p.guards.length > 0);
    if (refused.length > 0) {
      for (const plan of refused) for (const guard of plan.guards) this.io.err(`error: tenant ${quote(plan.tenant.name)}: ${guard.message}`);
      await this.notSaved('guards refuse it');
      return ExitCode.Refused;
    }
    if (this.outFile !== undefined) {
      const { savePlan } = await import('../../files/plan-file.js');
      await savePlan(resolve(this.context.cwd, this.outFile), planned);
      const what = planned.length === 1 ? `tenant ${planned[0]!.tenant.name}` : `${planned.length} tenants`;
      this.io.err(`Saved the plan of ${what} to ${safeText(this.outFile)}. To carry it out${planned.length === 1 ? '' : ', tenant by tenant in this order'}: roleflow apply ${safeText(this.outFile)}`);
    }
    return this.detailedExitcode && planned.some(plans.planHasChanges) ? ExitCode.Changes : ExitCode.Ok;
  }

  /** With `--out`: the plan was not saved, and why (an older file of that name is named as not this plan). */
  private async notSaved(why: string): Promise<void> {
    if (this.outFile === undefined) return;
    const { planNotSavedLine } = await import('../../files/plan-file.js');
    this.io.err(await planNotSavedLine(resolve(this.context.cwd, this.outFile), this.outFile, why));
  }

  /** The options of a plan that could not be made, for the tenant this run would have asked. */
  private unreadableOptions(config: Config, tenant?: string): Pick<PlanOptions, 'prune' | 'protect' | 'ignore' | 'tenant'> {
    const name = tenant ?? this.tenant ?? config.defaultTenant ?? (this.baseUrl ? 'custom' : 'local');
    const baseUrl = this.baseUrl ?? config.tenants[name]?.baseUrl ?? '';
    const { roles } = config;
    return { prune: this.prune ?? roles.prune, protect: roles.protect, ignore: roles.ignore, tenant: { name, baseUrl } };
  }
}
