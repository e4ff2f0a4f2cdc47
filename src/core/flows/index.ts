/**
 * Flow tests as code — the pure core. Runners (HTTPS, WebSocket), the `test` command and the
 * reporters build on this; nothing here does I/O or keeps time.
 *
 * Loading
 * - `parseFlowTestFile(text, file, schema)` → `Result<FlowTestFile>`: YAML + `schemas/flow-test.schema.json`
 *   (the caller passes it: `loadSchema('flow-test')`) + checks a schema cannot make (durations,
 *   budgets, regexes, embedded schemas, `${env:}` syntax, min_pass ≤ repeat, exactly one operator
 *   per assertion, unique test names), each issue at `file:line:col`. Defaults are resolved into
 *   every `FlowTest` (repeat 1, min_pass = repeat, timeout 60s, until.quiet 3s); every test and
 *   assertion keeps its line and column for annotations. `flowTestId(file, name)` is `FlowTest.id`.
 * - `expandInputs(inputs, env, secretNames)` resolves `${env:NAME}` (unset → `missing`, an error for
 *   that test) and returns the secret values, for `makeRedactor` (`core/redact.ts`) to hide.
 * - `parseDuration`, `parseBudget`, `withinBudget`, `formatMs`: `"1.5s"`, `"< 4s"`.
 *
 * Running one execution
 * - HTTPS: `httpsEndRule(test)`, then after each poll `httpsProgress(entries, history, rule, nowMs)`;
 *   while `running`, sleep `httpsWaitMs(progress, elapsedMs, msLeft, endDueInMs)` (undefined: the
 *   deadline passed, stop with an error) — built on `nextPollDelay(elapsedMs)` (a fifth of the time
 *   since the start, 25ms to 1s) and `expectedEndMs(known, rule, logged)` (when an earlier
 *   execution's reported step latencies say this one should end).
 * - WebSocket: `wsEndRule(test)`; each message goes into a `WsTally` (`tallyWsMessage`, constant
 *   time, from `EMPTY_WS_TALLY`), then after each message (or a wait that brought none)
 *   `wsProgress(tally, rule, msSinceLast)`; wait at most `quietEndsInMs` for the next message.
 *   `done.outputs` (= `tallyOutputs(tally)`) is the last completed message's `payload.outputs`.
 * - A `done` progress says `by` what (`until` or `quiet`): the `ended_by` of the execution.
 * - `latencyMs(rawLatency)`: the one reading of a log entry's `{seconds?, milliseconds}`.
 * The runner turns what it saw into an `ExecutionResult`.
 *
 * Judging
 * - `evaluateTest(test, execution)` → `AssertionResult[]` for one repeat (outputs, steps, `max`
 *   latency budgets; a failing `execution` result first when the execution failed or errored).
 * - `evaluateLatencyAcrossRepeats(test, executions)` → p50/p95/p99 results for one test × transport.
 * - `summariseRepeats(perRepeat, test.minPass, acrossRepeats)` → pass / fail / skip with a message.
 * - `percentile(values, p)` is nearest-rank: always an observed value; with 3 samples p50 is the
 *   middle one and p95/p99 the largest.
 *
 * Selecting
 * - `parseShard("2/4")`, `selectShard(ids, index, total)`: sorted ids dealt round-robin.
 */
export * from './types.js';
export { parseFlowTestFile, flowTestId, DEFAULT_QUIET_MS, DEFAULT_TIMEOUT_MS } from './parse.js';
export { expandInputs, parseEnvRefs, type ExpandedInputs } from './env.js';
export { parseDuration, parseBudget, withinBudget, formatMs } from './duration.js';
export { latencyMs, percentile } from './latency.js';
export { parsePath, valueAt } from './path.js';
export { checkOutput, show, type OutputVerdict } from './operators.js';
export {
  httpsEndRule,
  httpsProgress,
  httpsWaitMs,
  nextPollDelay,
  expectedEndMs,
  wsEndRule,
  wsProgress,
  tallyWsMessage,
  tallyWsMessages,
  tallyOutputs,
  EMPTY_WS_TALLY,
  quietEndedWsTests,
  type HttpsEndRule,
  type RuleEnd,
  type WsTally,
  type HttpsProgress,
  type PollHistory,
  type WsEndRule,
  type WsProgress,
} from './end-rules.js';
export { evaluateTest } from './evaluate.js';
export { evaluateLatencyAcrossRepeats, summariseRepeats, type RepeatSummary } from './repeats.js';
export { parseShard, selectShard, type Shard } from './shard.js';
export { globToRegExp, matchesGlob } from '../glob.js';
