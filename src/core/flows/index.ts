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
 *   that test) and returns the secret values, for `makeRedactor` (`core/text/redact.ts`) to hide.
 * - `parseDuration`, `parseBudget`, `withinBudget`, `formatMs`: `"1.5s"`, `"< 4s"`.
 *
 * Running one execution: when it is over is `core/runs` (end rules); here
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
 */
export * from './types.js';
export { parseFlowTestFile, flowTestId, DEFAULT_QUIET_MS, DEFAULT_TIMEOUT_MS } from './parse.js';
export { expandInputs, parseEnvRefs, type ExpandedInputs } from './env.js';
export { parseDuration, parseBudget, withinBudget, formatMs } from './duration.js';
export { latencyMs, percentile, percentileOfSorted } from './latency.js';
export { parsePath, valueAt } from './path.js';
export { checkOutput, show, type OutputVerdict } from './checks/operators.js';
export { evaluateTest } from './checks/evaluate.js';
export { evaluateLatencyAcrossRepeats, summariseRepeats, type RepeatSummary } from './repeats.js';
export { compileGlob, matchesGlob } from '../text/glob.js';
export { usesOperator, unknownJudges, unknownLeakRoles, shortLeakRoles, liveSnapshotKeys } from './checks/assertion-needs.js';
export { METRICS, similarity, type Metric } from './checks/similarity.js';
export { compileUserSchema, describeFailure, type SchemaCheck } from './checks/schema-check.js';
export { patternPointer } from './checks/schema-patterns.js';
export { LeakIndex, normalise, excerpt, DEFAULT_MIN_CHARS, type RoleText, type Leak } from './checks/leaks.js';
export { leakTexts } from './checks/leak-sources.js';
export {
  SNAPSHOT_DIR,
  snapshotFileName,
  snapshotKey,
  renderSnapshotFile,
  parseSnapshotFile,
  withoutIgnored,
  compareSnapshot,
  obsoleteKeys,
  type SnapshotEntries,
} from './checks/snapshot.js';
