import { expandInputs } from '../flows/env.js';
import type { FlowTest, FlowTestFile, Transport } from '../flows/index.js';
import { rerunKey, tagsSelect, type TagFilter } from './loop/index.js';
import { estimatedDurations, roundRobinPlan, timedPlan, type ShardPlan } from './shards/index.js';
import type { Shard } from './shard.js';

/**
 * Which test × transport pairs a `roleflow test` run holds, decided before anything is sent.
 * Pure (no I/O): it lives next to the orchestrator that consumes it.
 */
export interface PlannedRun {
  /** The test with `--repeat` applied. */
  test: FlowTest;
  transport: Transport;
  /** Not run: the test's `skip`, or a transport the tenant has not. */
  skip?: string;
  /** Set when the test cannot run: an `${env:NAME}` that is not set. */
  error?: string;
  /** The inputs with `${env:NAME}` resolved. */
  inputs: Record<string, string>;
}

export interface SelectOptions {
  /** Matched against `file > name` and against the name alone. */
  grep?: { test(text: string): boolean };
  /** `--tag`, `--exclude-tag`. */
  tags?: TagFilter;
  /** `--last-failed`, `--failed-from`: only these test × transport pairs (`rerunKey`). */
  only?: ReadonlySet<string>;
  shard?: Shard;
  /** `--timings`: past durations by test id; the shard plan deals tests by them (`timedPlan`). */
  timings?: ReadonlyMap<string, number>;
  /** `--transport`: only this one. */
  transport?: Transport;
  /** `--repeat`: overrides every test's repeat. */
  repeat?: number;
  /** Whether the tenant has a ws_url. */
  hasWs: boolean;
  env: Record<string, string | undefined>;
}

export interface Selection {
  runs: PlannedRun[];
  /** Tests that matched `--grep`, the tags and a rerun (before sharding): zero means they matched nothing. */
  matched: number;
  /** The plan `shard` is a slice of: every shard of the run makes the same one. */
  plan?: ShardPlan;
  /** Values of the variables the files list under `secrets:` (set ones only). */
  secrets: string[];
}

export function selectRuns(files: readonly FlowTestFile[], options: SelectOptions): Selection {
  const { grep, tags, only } = options;
  const tests = files.flatMap((f) => f.tests.map((test) => ({ test, file: f })));
  const matching = tests.filter(
    ({ test }) =>
      (!grep || grep.test(test.id) || grep.test(test.name)) &&
      (!tags || tagsSelect(test.tags, tags)) &&
      (!only || (['https', 'ws'] as const).some((t) => only.has(rerunKey(test.id, t)))),
  );
  const plan = options.shard ? shardPlan(matching.map(({ test }) => test.id), options.shard.total, options.timings) : undefined;
  const index = options.shard?.index;
  const secrets = new Set<string>();
  const runs: PlannedRun[] = [];
  for (const { test, file } of matching) {
    if (plan && plan.shardOf.get(test.id) !== index) continue;
    const expanded = expandInputs(test.inputs, options.env, file.secrets);
    for (const s of expanded.secrets) secrets.add(s);
    const error =
      expanded.missing.length === 0
        ? undefined
        : `environment variable${expanded.missing.length === 1 ? '' : 's'} ${expanded.missing.join(', ')} not set (used in inputs as \${env:NAME})`;
    const withRepeat = applyRepeat(test, options.repeat);
    for (const transport of transportsOf(test, options)) {
      if (only && !only.has(rerunKey(test.id, transport))) continue;
      const skip =
        test.skip ?? (transport === 'ws' && !options.hasWs ? 'the tenant has no ws_url: the WebSocket transport is not available' : undefined);
      // Member by member, once per test and transport: conditional spreads cost a runtime call each.
      const run: PlannedRun = { test: withRepeat, transport, inputs: expanded.values };
      if (skip !== undefined) run.skip = skip;
      else if (error !== undefined) run.error = error;
      runs.push(run);
    }
  }
  return { runs, matched: matching.length, secrets: [...secrets], ...(plan && { plan }) };
}

/** The run's shard plan: by past duration with `--timings` (new tests at the median), else round-robin. */
function shardPlan(ids: readonly string[], total: number, timings: ReadonlyMap<string, number> | undefined): ShardPlan {
  return timings ? timedPlan(ids, estimatedDurations(ids, timings), total) : roundRobinPlan(ids, total);
}

/** The test's or file's `transport`, else both where the tenant has a ws_url; narrowed by `--transport`. */
function transportsOf(test: FlowTest, options: SelectOptions): Transport[] {
  const declared = test.transports ?? (options.hasWs ? ['https', 'ws'] : ['https']);
  const wanted = options.transport;
  return (['https', 'ws'] as const).filter((t) => declared.includes(t) && (wanted === undefined || wanted === t));
}

/** `--repeat N`: min_pass stays at most N; a min_pass that was "all of them" stays all of them. */
function applyRepeat(test: FlowTest, repeat: number | undefined): FlowTest {
  if (repeat === undefined) return test;
  const minPass = test.minPass >= test.repeat ? repeat : Math.min(test.minPass, repeat);
  return { ...test, repeat, minPass };
}
