import { DEFAULT_QUIET_MS, valueAt, type ExecutionResult, type FlowTest, type JudgeAssertion, type JudgeRecord, type OutputAssertion } from '../../core/flows/index.js';
import { judgeInputs, majority, outputText, readVote, verdictDigest, type JudgeConfig, type Vote } from '../../core/flows/judges/index.js';
import type { TenantClient } from '../../core/model.js';
import type { RunClock } from './flow-shared.js';
import { runWs } from './flow-ws.js';

/** A report's judge verdicts, by digest: what a rerun reuses (`test --baseline`). Errors are judged again. */
export function judgeCache(report: unknown): Map<string, JudgeRecord> {
  const cache = new Map<string, JudgeRecord>();
  const results = (report as { results?: { repeats?: { assertions?: { judge?: JudgeRecord }[] }[] }[] } | undefined)?.results ?? [];
  for (const r of results) for (const repeat of r.repeats ?? []) for (const a of repeat.assertions ?? []) {
    if (a.judge && a.judge.verdict !== 'error') cache.set(a.judge.digest, a.judge);
  }
  return cache;
}

export interface JudgeRunnerOptions {
  client: TenantClient;
  judges: Readonly<Record<string, JudgeConfig>>;
  /** The content of the judge's prompt Role, by Role name ('' when roles/ has none). */
  roleContent: (role: string) => string;
  /** Verdicts of an earlier run (`judgeCache`), reused by digest. */
  cache?: ReadonlyMap<string, JudgeRecord>;
  /** The tenant has a WebSocket URL: judges run over it (HTTPS execution logs carry no outputs). */
  hasWs: boolean;
  clock?: RunClock;
  signal?: AbortSignal;
}

/**
 * The judges of one run: each output a `judge` assertion names is judged once per digest (the
 * majority of `votes` executions of the judge flow over WebSocket, at once), before its test's
 * result is built; `lookup` gives the verdict to the assertion.
 */
export class JudgeRunner {
  private readonly verdicts = new Map<string, JudgeRecord>();

  constructor(private readonly options: JudgeRunnerOptions) {}

  /** Judge every `judge` assertion of `test` on the value of each execution that finished. */
  async judgeExecutions(test: FlowTest, executions: readonly (ExecutionResult | undefined)[]): Promise<void> {
    for (const a of test.expect.outputs) {
      if (a.operator !== 'judge') continue;
      for (const e of executions) {
        if (e === undefined || e.status === 'error' || this.options.signal?.aborted) continue;
        const { found, value } = valueAt(e.outputs, a.segments);
        if (found) await this.verdictOn(a.judge!, outputText(value));
      }
    }
  }

  /** The verdict of judge `spec.name` on `output`: judged once per digest (or reused from the cache). */
  async verdictOn(spec: JudgeAssertion, output: string): Promise<JudgeRecord> {
    const digest = this.digestOf(spec, output);
    let record = this.verdicts.get(digest);
    if (record === undefined) {
      const cached = this.options.cache?.get(digest);
      record = cached ? { ...cached, cached: true } : await this.judge(spec, output, digest);
      this.verdicts.set(digest, record);
    }
    return record;
  }

  /** The verdict on `value` for assertion `a`, once judged. */
  readonly lookup = (a: OutputAssertion, value: unknown): JudgeRecord | undefined => this.verdicts.get(this.digestOf(a.judge!, outputText(value)));

  private digestOf(spec: JudgeAssertion, output: string): string {
    const judge = this.options.judges[spec.name]!;
    return verdictDigest(judge, output, spec, this.options.roleContent(judge.role));
  }

  private async judge(spec: JudgeAssertion, output: string, digest: string): Promise<JudgeRecord> {
    const judge = this.options.judges[spec.name]!;
    if (!this.options.hasWs) {
      return majority(spec.name, digest, [{ error: 'the tenant has no ws_url: a judge flow runs over WebSocket, whose messages carry its outputs', ids: {} }]);
    }
    const inputs = judgeInputs(judge, output, spec);
    const test = judgeTest(judge);
    const run = { ...(this.options.clock && { clock: this.options.clock }), ...(this.options.signal && { signal: this.options.signal }) };
    const votes = await Promise.all(Array.from({ length: spec.votes }, () => runWs(this.options.client, test, inputs, run).then((e) => voteOf(judge, e))));
    return majority(spec.name, digest, votes);
  }
}

/** The judge flow as a test the WebSocket runner can run: its flow, timeout and end rule. */
function judgeTest(judge: JudgeConfig): FlowTest {
  return {
    id: `judge ${judge.name}`,
    file: 'roleflow.config.yaml',
    line: 1,
    col: 1,
    flow: judge.flow,
    name: `judge ${judge.name}`,
    inputs: {},
    repeat: 1,
    minPass: 1,
    timeoutMs: judge.timeoutMs,
    until: { quietMs: DEFAULT_QUIET_MS, ...judge.until },
    expect: { outputs: [] },
  };
}

function voteOf(judge: JudgeConfig, e: ExecutionResult): Vote {
  const ids: Vote['ids'] = {};
  if (e.ids?.flowId !== undefined) ids.flow_id = e.ids.flowId;
  if (e.ids?.executionId !== undefined) ids.execution_id = e.ids.executionId;
  if (e.ids?.connectionId !== undefined) ids.connection_id = e.ids.connectionId;
  if (e.ids?.messageIds !== undefined) ids.message_ids = e.ids.messageIds;
  if (e.status !== 'ok') return { error: `judge ${judge.name}: ${e.error ?? 'the judge flow failed'}`, ids };
  return readVote(judge, e.outputs, ids);
}
