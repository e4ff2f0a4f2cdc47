import type { NameMatcher } from '../text/glob.js';
import type { UserRegex } from '../text/linear-regex.js';
import type { ExecutionLogEntry, WsServerMessage } from '../model.js';
import type { ErrorCode } from '../errors.js';

/** A value parsed from one string the user wrote, or one line saying what is wrong with it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export type Transport = 'https' | 'ws';

/**
 * The most executions of one test per transport, in a file (`repeat`, `min_pass`) or with
 * `--repeat`: enough for any percentile, and every one is held in memory until the report.
 */
export const MAX_REPEAT = 10_000;

/** Where something was written in its YAML file (1-based), so reports can point at it. */
export interface Located {
  line: number;
  col: number;
}

/** `"< 4s"` → `{op: '<', ms: 4000}`. */
export interface Budget {
  op: '<' | '<=';
  ms: number;
  /** The text as written, for labels. */
  text: string;
  /**
   * `"< baseline + 20%"`: relative to the same statistic in a baseline report (`test --baseline`).
   * `ms` holds the budget once `value` is known; until then, or when the baseline lacks the
   * samples, `skip` says why the assertion is skipped.
   */
  baseline?: { plus: number; value?: number; skip?: string };
}

/** A flow test file after loading: defaults resolved into every test, strings parsed. */
export interface FlowTestFile {
  file: string;
  /** The flowName (HTTPS) / service (WebSocket). */
  flow: string;
  /** Environment variables whose values are redacted from every report. */
  secrets: string[];
  /** The file's `tags`: every test of it has them. */
  tags?: string[];
  tests: FlowTest[];
}

export interface FlowTest extends Located {
  /** `<file> > <name>`: unique within a run; what `--shard` slices. */
  id: string;
  file: string;
  flow: string;
  name: string;
  /** As written: values may hold `${env:NAME}`; resolve them with `expandInputs`. */
  inputs: Record<string, string>;
  repeat: number;
  /** Repeats that must pass; defaults to `repeat` (all of them). */
  minPass: number;
  timeoutMs: number;
  until: UntilRule;
  /** The test's or the file's `transport`; undefined: the runner's default (both where possible). */
  transports?: Transport[];
  /** Set when the test is skipped: the reason given, or "skipped". */
  skip?: string;
  /** The file's `tags` and the test's own (`--tag`, `--exclude-tag`); absent when neither has any. */
  tags?: string[];
  expect: Expectations;
}

export interface UntilRule {
  steps?: number;
  node?: string;
  messages?: number;
  quietMs: number;
}

export interface Expectations {
  outputs: OutputAssertion[];
  steps?: StepsExpectation;
  latency?: LatencyExpectation;
}

export const OPERATORS = [
  'equals',
  'contains',
  'icontains',
  'matches',
  'exists',
  'length',
  'gt',
  'gte',
  'lt',
  'lte',
  'schema',
  'snapshot',
  'not_leaks',
  'similar',
  'judge',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Comparison {
  equals?: number;
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export interface OutputAssertion extends Located {
  path: string;
  segments: PathSegment[];
  operator: Operator;
  /**
   * The operand as written (a regex source for `matches`, a schema object or file for `schema`,
   * `true` for `snapshot`, a Role name or `*` for `not_leaks`).
   */
  expected: unknown;
  not: boolean;
  /** Compiled at load time for `matches` (a linear-time engine: see core/text/linear-regex.ts). */
  regex?: UserRegex;
  /**
   * Compiled at load time for `schema` (an inline schema by the core, a schema file by the
   * loader of the files): the problems, empty when the value conforms.
   */
  check?: SchemaCheck;
  /** `snapshot`: members left out of the snapshot and the comparison (`withoutIgnored`). */
  ignore?: string[];
  /** `not_leaks`: the shortest verbatim run of a Role that counts as a leak. */
  minChars?: number;
  /** `similar`: the text to compare with (a `{file}` is read by the loader), the metric and the least similarity. */
  similar?: { to?: string; file?: string; metric: SimilarityMetric; gte: number };
  /** `snapshot: {tolerance}`: a snapshot that differs passes when this similar to it (the diff still shown). */
  tolerance?: { metric: SimilarityMetric; gte: number };
  /** `judge`: the judge of the config, the rubric and how its verdicts are counted. */
  judge?: JudgeAssertion;
}

export type SimilarityMetric = 'rouge-l' | 'token-f1' | 'levenshtein';

export interface JudgeAssertion {
  name: string;
  rubric: string;
  reference?: string;
  /** The least mean score of the votes that passes (when the judge gives scores). */
  minScore?: number;
  /** Judge executions; the majority of their verdicts is the verdict. Odd. */
  votes: number;
}

/**
 * A judge's verdict on one output (`judge` assertions), as every report records it: the majority
 * of `votes` executions of the judge flow. `digest` (of the judge, the output, the rubric, the
 * reference and the judge Role's content) is what reruns find it by, to reuse it.
 */
export interface JudgeRecord {
  judge: string;
  digest: string;
  verdict: 'pass' | 'fail' | 'error';
  /** The mean of the votes' scores, when the judge gave any. */
  score?: number;
  /** Every vote's reason (an execution that failed: its error). */
  reasons: string[];
  /** The judge executions' ids on the tenant, one per vote. */
  executions: { flow_id?: string; execution_id?: string; connection_id?: string; message_ids?: string[] }[];
  /** Reused from an earlier run's report (`--baseline`), not judged again. */
  cached?: true;
}

/**
 * What output assertions need beyond the test and the execution, gathered by the runner: the
 * snapshots to compare with and the Roles' texts. Absent parts skip the assertions that need them.
 */
export interface AssertionContext {
  /** By `snapshotKey(test name, transport, path)`. */
  snapshots?: ReadonlyMap<string, SnapshotBaseline>;
  /** `CI` is set (and `-u` is not): a snapshot missing from its file fails instead of being written. */
  ci?: boolean;
  /** The index of one Role (or `*`: all of them) for `not_leaks`; undefined: no such Role. */
  leaks?: (role: string, minChars: number) => LeakFinder | undefined;
  /**
   * Secrets masked in a value, as every report masks them: a snapshot is compared (and written)
   * masked, so a snapshot file never holds a secret.
   */
  mask?: (value: unknown) => unknown;
  /** The verdict of `judge` assertions on an output (judged before the test is built); undefined: not judged. */
  judged?: (a: OutputAssertion, output: unknown) => JudgeRecord | undefined;
  /** `--no-judge`: judge assertions are skipped (never passed). */
  noJudge?: boolean;
}

/**
 * The value a snapshot assertion is compared with. file: read from the snapshot file; new: none
 * was stored, so the first repeat's value is written; update: `-u` writes the first repeat's value.
 * Every repeat is compared with it.
 */
export interface SnapshotBaseline {
  value: unknown;
  source: 'file' | 'new' | 'update';
}

export type PathSegment = string | number;

export interface StepsExpectation {
  count?: { value: number } & Located;
  sequence?: { value: string[] } & Located;
  /** Keys are log-entry fields as the service names them (`status`, `service_type`…). */
  each?: { value: Record<string, string> } & Located;
}

/** `max` is checked on every repeat; p50/p95/p99 across the repeats of a test × transport. */
export type BudgetKind = 'max' | 'p50' | 'p95' | 'p99';

export interface LatencyBudget extends Located {
  kind: BudgetKind;
  budget: Budget;
}

export interface StepLatencyBudget extends LatencyBudget {
  /** A service name or a glob (`llm*`). */
  pattern: string;
  regex: NameMatcher;
}

export interface LatencyExpectation {
  total: LatencyBudget[];
  steps: StepLatencyBudget[];
}

/**
 * How an execution ended (the report's `ended_by`). until: the test's `until` (or
 * `expect.steps.count`) was reached; quiet: nothing said it was over, nothing new came for
 * `until.quiet` (or the service closed the connection after its completed messages); failed_step:
 * a step or message reported a failure; timeout: the test's `timeout` passed; error: the start,
 * a poll or the connection failed; interrupted: the run was stopped (SIGINT/SIGTERM).
 */
export const ENDED_BY = ['until', 'quiet', 'failed_step', 'timeout', 'error', 'interrupted'] as const;
export type EndedBy = (typeof ENDED_BY)[number];

/** What a runner hands back for one execution of one test over one transport. */
export interface ExecutionResult {
  transport: Transport;
  /**
   * ok: ended by the end rule; failed: the flow reported a failure; error: timeout, network, HTTP
   * error, a quiet end under --strict-end, an interruption.
   */
  status: 'ok' | 'failed' | 'error';
  endedBy: EndedBy;
  error?: string;
  /** The kind of the failure behind `error`, when a request failed (`unreachable`, `unauthorized`…). */
  errorCode?: ErrorCode;
  /** The decoded outputs (`{results: [...]}`); over HTTPS only when the runner has them. */
  outputs?: unknown;
  /** HTTPS only: the execution log as last polled. */
  steps?: ExecutionLogEntry[];
  /** WebSocket only: every message received, ack included. */
  messages?: WsServerMessage[];
  /** Client wall-clock, start to finish. */
  wallMs: number;
  /** The tenant's names for this execution, to look it up there (what the service gave). */
  ids?: ExecutionIds;
  /** WebSocket only: when each of `messages` arrived, in ms from the start. */
  messageAtMs?: number[];
}

/** HTTPS: the start's `flowId` and `executionId`; WebSocket: the messages' `connectionId` and `messageId`s. */
export interface ExecutionIds {
  flowId?: string;
  executionId?: string;
  connectionId?: string;
  messageIds?: string[];
}

export interface AssertionResult extends Located {
  /** `execution` appears only when the execution itself failed or errored. */
  kind: 'execution' | 'output' | 'steps' | 'latency';
  label: string;
  status: 'pass' | 'fail' | 'skip';
  /** Rendered for display (JSON for values, `< 4s` for budgets). */
  expected?: string;
  actual?: string;
  /** One line: on a failure it shows expected and actual; on a skip, the reason. */
  message: string;
  /** A failed `snapshot`: the unified diff of the YAML, snapshot (`-`) to received (`+`). */
  diff?: string;
  /** A `judge` assertion: the verdict, score, reasons and the judge executions' ids. */
  judge?: JudgeRecord;
  /** A latency budget that was judged: its bound, the statistic, and the step name or glob (absent: the total). */
  budget?: { ms: number; stat: BudgetKind; step?: string };
}

/** A compiled JSON Schema of a `schema` assertion: the failures of `value` at `path` (none: it fits). */
export type SchemaCheck = (value: unknown, path: string) => string[];

/** A run of a Role's text found in an output (`not_leaks`). */
export interface Leak {
  role: string;
  file: string;
  /** The line of the role file where the leaked run starts. */
  line: number;
  /** The leaked run as the Role has it, whitespace runs one space, in full. */
  text: string;
}

/** What `not_leaks` looks for in an output: the first run of a Role's text it holds (checks/leaks.ts `LeakIndex`). */
export interface LeakFinder {
  /** The shortest run that counts as a leak. */
  readonly minChars: number;
  find(text: string): Leak | undefined;
}
