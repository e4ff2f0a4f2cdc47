import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ManyTenantsCommand } from './tenant-command.js';

export class ShardsCommand extends ManyTenantsCommand {
  static override paths = [['shards']];
  static override usage = Command.Usage({
    category: 'Flow tests',
    description: 'A CI matrix of tenants × shards, balanced by past durations',
    details: `
      Weighs every test of the flows folder by its duration in \`--timings REPORT\` (a JSON report,
      usually the merged one of the last run on the default branch; a test it lacks counts as the
      median) and finds, for each tenant, the fewest shards whose longest ends within
      \`--target-minutes\` (default 10) — the tests dealt as \`roleflow test --shard I/N --timings
      REPORT\` deals them, longest first, each shard running \`flows.concurrency\` executions at once,
      or its share of \`flows.concurrency_total\` (max(1, floor(total / N))): past that budget, more
      shards do not make the run shorter. The whole matrix holds at most \`--max-jobs\` jobs (default
      256, GitHub's limit for one matrix).

      \`--json\` prints a GitHub Actions matrix, \`{"include":[{"tenant":"staging","shard":"1/8"}, …]}\`
      (no \`format_version\`: GitHub would read it as a dimension of the matrix;
      \`schemas/shards.schema.json\`); without it, one line per tenant. Tenants: \`--tenant\`
      (repeatable), \`--all-tenants\`, else the default one.

      Exit codes: 0 the matrix is printed, 1 an unreadable report or flow test, bad usage.
    `,
    examples: [
      ['The matrix for staging, shards of at most 10 minutes', 'roleflow shards --timings roleflow-timings.json --tenant staging --json'],
      ['Every tenant, at most 40 jobs in all', 'roleflow shards --timings roleflow-timings.json --all-tenants --max-jobs 40 --json'],
    ],
  });

  timings = Option.String('--timings', { required: true, description: 'A JSON report whose durations weigh the tests' });
  targetMinutes = Option.String('--target-minutes', '10', {
    description: 'Each shard should end within this many minutes (default 10)',
    validator: t.cascade(t.isNumber(), [t.isInExclusiveRange(0, 100_000)]),
  });
  maxJobs = Option.String('--max-jobs', '256', { description: 'The most jobs in the matrix (default 256)', validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 100_000)]) });
  json = Option.Boolean('--json', false, { description: 'The GitHub Actions matrix as JSON' });

  async execute(): Promise<number> {
    const [{ planShardMatrix, shardsText }, { tenantNameOf }] = await Promise.all([import('../run/shards.js'), import('../tenant/open-tenant.js')]);
    const config = await this.loadConfig();
    const tenants = (await this.severalTenants(config)) ?? [tenantNameOf(config, { tenant: this.tenant, baseUrl: this.baseUrl })];
    const result = await planShardMatrix({ cwd: this.context.cwd, config, timings: this.timings, targetMinutes: Number(this.targetMinutes), maxJobs: Number(this.maxJobs), tenants });
    if (this.json) this.io.outJson(result.matrix, 0);
    else this.io.out(shardsText(result, Number(this.targetMinutes)));
    return 0;
  }
}
