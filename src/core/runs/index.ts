/**
 * Running flow tests, the pure parts: which runs a `test` command makes (`selectRuns`: files,
 * `--grep`, transports, `--shard`), and when an execution is over (`end-rules.ts`: the HTTPS poll
 * schedule and the WebSocket end, how it ended). No clock, no network: the runners in src/run
 * pass the time and what the tenant said.
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
 *   Once it is over, `tallyOutputs(tally)` gives the outputs: the last completed message's
 *   payload (`messagePayload`, its `message` text read as JSON) has them.
 * - A `done` progress says `by` what (`until` or `quiet`): the `ended_by` of the execution.
 *
 * Selecting
 * - `parseShard("2/4")`, `selectShard(ids, index, total)`: sorted ids dealt round-robin.
 * - `selectRuns(files, options)`: the runs of one `test` command, in order.
 *
 * What a run's report records
 * - `countResults(results)`: the summary's counts, derived from the results (`promote` recounts).
 * - `combineWorkTrees`, `commonRolesDigest`: the work tree and the tenant's Roles a run (or the
 *   shards of a merge) ran against, combined.
 */
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
export { messagePayload } from './ws-payload.js';
export { parseShard, selectShard, type Shard } from './shard.js';
export { selectRuns, type PlannedRun, type Selection, type SelectOptions } from './select.js';
export { countResults, type CountedResult, type RunCounts } from './counts.js';
export { combineWorkTrees, commonRolesDigest, MAX_CHANGED, type RolesDigestRecord, type WorkTreeRecord } from './tested-against.js';
export { transportWarnings, type TenantTransports } from './transport-warnings.js';
