import { Command, Option } from 'clipanion';
import { RoleflowCommand } from './base.js';
import { allTenantsOption, jsonOption, numberOptionOr, tenantsOption } from './options.js';

export class ShardsCommand extends RoleflowCommand {
  static override paths = [['shards']];
  static override usage = Command.Usage({
    category: 'Flow tests',
    description: 'A CI matrix of tenants × shards, balanced by past durations',
    details: `
      Weighs every test of the flows folder by its duration in \`--timings REPORT\` (a JSON report,
      usually the merged one of the last run on the default branch; a test it lacks counts as the
      median) and finds, for each tenant, the fewest shards whose longest ends within
      \`--target-minutes\` — the tests dealt as \`roleflow test --shard I/N --timings REPORT\` deals
      them, each shard running \`flows.concurrency\` executions at once, or its share of
      \`flows.concurrency_total\` (max(1, floor(total / N))): past that budget more shards do not make
      the run shorter. The whole matrix holds at most \`--max-jobs\` jobs (256 is GitHub's limit).

      \`--json\` prints a GitHub Actions matrix, \`{"include":[{"tenant":"staging","shard":"1/8"}, …]}\`
      (\`schemas/shards.schema.json\`; no \`format_version\`: GitHub would read it as a dimension of the
      matrix). Without it, one line per tenant. Tenants: \`--tenant\` (repeatable), \`--all-tenants\`,
      else the default one.

      Exit codes: 0 the matrix is printed, 1 an unreadable report or flow test, bad usage.
    `,
    examples: [
      ['The matrix for staging, shards of at most 10 minutes', 'roleflow shards --timings roleflow-timings.json --tenant staging --json'],
      ['Every tenant, at most 40 jobs in all', 'roleflow shards --timings roleflow-timings.json --all-tenants --max-jobs 40 --json'],
    ],
  });

  timings = Option.String('--timings', { required: true, description: 'A JSON report whose durations weigh the tests' });
  targetMinutes = numberOptionOr('--target-minutes', '10', 'Each shard should end within this many minutes (default 10)', { min: 0.0001, max: 100_000 });
  maxJobs = numberOptionOr('--max-jobs', '256', 'The most jobs in the matrix (default 256)', { min: 1, max: 100_000, integer: true });
  tenants = tenantsOption();
  allTenants = allTenantsOption();
  json = jsonOption('The GitHub Actions matrix as JSON');

  async execute(): Promise<number> {
    const { shards } = await import('../run/flows/shards.js');
    const { timings, tenants, allTenants, json } = this;
    return shards({ ...this.common, timings, targetMinutes: Number(this.targetMinutes), maxJobs: Number(this.maxJobs), tenants, allTenants, json }, this.ports);
  }
}
