import type { Parsed } from '../../flows/types.js';
/** A slice of a run, 1-based: `--shard 2/4`. */
interface Shard {
  index: number;
  total: number;
}

/** Where `--shard auto` found its index and total, for the run's first line. */
export interface AutoShard extends Shard {
  source: string;
}

/**
 * `--shard auto`: the shard from the CI system's own variables, each 0-based there and 1-based
 * here: Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, the total from `--shard-total`, as a Job
 * spec's `completions`), Buildkite parallelism (`BUILDKITE_PARALLEL_JOB`,
 * `BUILDKITE_PARALLEL_JOB_COUNT`), CircleCI parallelism (`CIRCLE_NODE_INDEX`, `CIRCLE_NODE_TOTAL`).
 * The first system whose index is set decides; none set, a value that is not a count, or a
 * `--shard-total` the system's own total contradicts, is one line.
 */
export function shardFromEnv(env: Record<string, string | undefined>, shardTotal: number | undefined): Parsed<AutoShard> {
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  if (set('JOB_COMPLETION_INDEX')) {
    if (shardTotal === undefined) {
      return { ok: false, error: '--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job), which does not say how many shards there are: add --shard-total N (the Job\'s completions)' };
    }
    return fromZeroBased('Kubernetes', 'JOB_COMPLETION_INDEX', env['JOB_COMPLETION_INDEX']!, '--shard-total', String(shardTotal));
  }
  const systems = [
    ['Buildkite', 'BUILDKITE_PARALLEL_JOB', 'BUILDKITE_PARALLEL_JOB_COUNT'],
    ['CircleCI', 'CIRCLE_NODE_INDEX', 'CIRCLE_NODE_TOTAL'],
  ] as const;
  for (const [system, index, total] of systems) {
    if (!set(index)) continue;
    if (!set(total)) return { ok: false, error: `--shard auto: ${index} is set (${system}) but ${total} is not` };
    const own = count(env[total]!);
    if (shardTotal !== undefined && own !== undefined && own !== shardTotal) {
      return { ok: false, error: `--shard auto: --shard-total ${shardTotal} but ${total}=${own} (${system}): give --shard-total only for a Kubernetes Indexed Job` };
    }
    return fromZeroBased(system, index, env[index]!, total, env[total]!);
  }
  return {
    ok: false,
    error: '--shard auto: no shard index in the environment (JOB_COMPLETION_INDEX with --shard-total for Kubernetes, BUILDKITE_PARALLEL_JOB for Buildkite, CIRCLE_NODE_INDEX for CircleCI); elsewhere give --shard I/N',
  };
}

function fromZeroBased(system: string, indexName: string, indexText: string, totalName: string, totalText: string): Parsed<AutoShard> {
  const index = count(indexText);
  const total = count(totalText);
  if (index === undefined) return { ok: false, error: `--shard auto: ${indexName}=${JSON.stringify(indexText)} is not a shard index (0, 1, 2, …)` };
  if (total === undefined || total < 1) return { ok: false, error: `--shard auto: ${totalName}=${JSON.stringify(totalText)} is not a number of shards (1 or more)` };
  if (index >= total) return { ok: false, error: `--shard auto: ${indexName}=${index} is not one of the ${total} shards (${totalName}=${total}; the index counts from 0)` };
  return { ok: true, value: { index: index + 1, total, source: `${system}: ${indexName}=${index}, ${totalName}=${total}` } };
}

function count(text: string): number | undefined {
  return /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : undefined;
}
