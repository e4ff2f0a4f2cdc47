import { expandInputs, type FlowTest, type FlowTestFile, type Transport } from '../flows/index.js';
import { selectShard, type Shard } from './shard.js';

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
  shard?: Shard;
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
  /** Tests that matched `--grep` (before sharding): zero means the pattern matched nothing. */
  matched: number;
  /** Values of the variables the files list under `secrets:` (set ones only). */
  secrets: string[];
}

export function selectRuns(files: readonly FlowTestFile[], options: SelectOptions): Selection {
  const grep = options.grep;
  const tests = files.flatMap((f) => f.tests.map((test) => ({ test, file: f })));
  const matching = grep ? tests.filter(({ test }) => grep.test(test.id) || grep.test(test.name)) : tests;
  const chosen = options.shard
    ? new Set(selectShard(matching.map(({ test }) => test.id), options.shard.index, options.shard.total))
    : undefined;
  const secrets = new Set<string>();
  const runs: PlannedRun[] = [];
  for (const { test, file } of matching) {
    if (chosen && !chosen.has(test.id)) continue;
    const expanded = expandInputs(test.inputs, options.env, file.secrets);
    for (const s of expanded.secrets) secrets.add(s);
    const error =
      expanded.missing.length === 0
        ? undefined
        : `environment variable${expanded.missing.length === 1 ? '' : 's'} ${expanded.missing.join(', ')} not set (used in inputs as \${env:NAME})`;
    const withRepeat = applyRepeat(test, options.repeat);
    for (const transport of transportsOf(test, options)) {
      const skip =
        test.skip ?? (transport === 'ws' && !options.hasWs ? 'the tenant has no ws_url: the WebSocket transport is not available' : undefined);
      // Member by member, once per test and transport: conditional spreads cost a runtime call each.
      const run: PlannedRun = { test: withRepeat, transport, inputs: expanded.values };
      if (skip !== undefined) run.skip = skip;
      else if (error !== undefined) run.error = error;
      runs.push(run);
    }
  }
  return { runs, matched: matching.length, secrets: [...secrets] };
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
