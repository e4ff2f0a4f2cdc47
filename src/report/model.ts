import type { AssertionResult, EndedBy, Transport } from '../core/flows/index.js';
import type { RolesDigestRecord, RunCounts, Shard, WorkTreeRecord } from '../core/runs/index.js';

export type { RolesDigestRecord, WorkTreeRecord };

/**
 * The results of one `roleflow test` run as data: what the JSON reporter writes (the shape of
 * `schemas/report.schema.json`, snake_case as in the file) and what every other reporter — and
 * `report merge` — renders from. Nothing in it is a secret: its values are redacted first.
 */
export interface RunReport {
  format_version: typeof REPORT_FORMAT_VERSION;
  tool: { name: 'roleflow'; version: string };
  /** Never the token. */
  tenant: { name: string; base_url: string; ws_url?: string };
  /** The commit the run tested, when known: `$GITHUB_SHA`, else `git rev-parse HEAD`; `promote` needs it. */
  commit?: string;
  /**
   * Which tests the run was asked for: `test`'s PATH arguments, `--grep`, `--transport`; `promote`
   * needs the whole suite. Absent from reports written before it was recorded, and from a merge
   * of runs that selected differently.
   */
  selection?: RunSelection;
  /**
   * The Roles the tenant held when the tests ran: listed before the first execution and after
   * the last, each listing as one digest (`rolesDigest`). `promote` needs both to be the Roles of
   * the role files. Absent when a listing failed or the run was interrupted, and from a merge of
   * runs that saw different Roles.
   */
  roles_digest?: RolesDigestRecord;
  /** Whether the git work tree was the commit, before the run and after it; `promote` needs `clean`. */
  work_tree?: WorkTreeRecord;
  /** The slice this run was (`--shard I/N`). */
  shard?: Shard;
  /** A merged report: the shards it combines. */
  merged_shards?: Shard[];
  /** A report merged with `--allow-partial`: the shards of the run that it lacks. */
  missing_shards?: Shard[];
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** `--bail` stopped starting executions after a failure. */
  bailed: boolean;
  /**
   * The run was interrupted (SIGINT/SIGTERM): executions in flight ended as `interrupted` and
   * what had not started is not run. Absent from reports written before it was recorded.
   */
  interrupted?: boolean;
  summary: RunSummary;
  /** One per test × transport, in the order the tests were found. */
  results: TestResult[];
}

export const REPORT_FORMAT_VERSION = 1;

/** What `roleflow test` was asked to run, paths named as reports name files (relative to the working folder, `/`). */
export interface RunSelection {
  /** The flows folder of the config (`flows.dir`), which a run without PATH arguments runs. */
  flows_dir: string;
  /** The PATH arguments, resolved; empty: none (the flows folder). */
  paths: string[];
  grep?: string;
  transport?: Transport;
}

/** The counts of the run's results (`countResults`): a report's `summary`. */
export type RunSummary = RunCounts;

/** skip: what the test file or the tenant says not to run; not_run: what --bail or an interruption stopped. */
export type TestStatus = 'pass' | 'fail' | 'error' | 'skip' | 'not_run';

export interface TestResult {
  /** `file > name`, as `--grep` and `--shard` see it. */
  id: string;
  file: string;
  line: number;
  col: number;
  flow: string;
  name: string;
  transport: Transport;
  status: TestStatus;
  /** One line: why it failed or was skipped, or how many repeats passed. */
  message: string;
  repeat: number;
  min_pass: number;
  /** Repeats that passed. */
  passed: number;
  /** Client wall-clock of the executions that finished, start to end. */
  wall_ms: LatencyStats | null;
  /** Server-reported step latency by service (HTTPS only), across every repeat. */
  step_latency_ms: Record<string, LatencyStats>;
  /** p50/p95/p99 budgets, judged over every repeat. */
  across_repeats: AssertionResult[];
  repeats: RepeatResult[];
}

export interface LatencyStats {
  count: number;
  min: number;
  p50: number;
  p95: number;
  max: number;
}

export type RepeatStatus = 'pass' | 'fail' | 'error' | 'skip' | 'not_run';

export interface RepeatResult {
  /** 1-based. */
  index: number;
  /**
   * error: the execution did not finish (timeout, transport); fail: an assertion or the flow
   * failed; not_run: never started, or cut short by an interruption (then `ended_by` says so).
   */
  status: RepeatStatus;
  execution: 'ok' | 'failed' | 'error' | 'not_run';
  /** How the execution ended; absent when it never started. */
  ended_by?: EndedBy;
  error?: string;
  /** Client wall-clock; null when not run. */
  wall_ms: number | null;
  /** HTTPS: the execution log as last polled; latency as the service reported it. */
  steps: StepRecord[];
  /** WebSocket: every message received, ack included. */
  messages: MessageRecord[];
  /** WebSocket: the outputs of the last completed message. */
  outputs?: unknown;
  assertions: AssertionResult[];
  /** The tenant's names for the execution, to look it up there; absent when the service gave none. */
  ids?: ExecutionIdsRecord;
}

/** HTTPS: `flow_id`, `execution_id`; WebSocket: `connection_id`, `message_ids`. */
export interface ExecutionIdsRecord {
  flow_id?: string;
  execution_id?: string;
  connection_id?: string;
  message_ids?: string[];
}

export interface StepRecord {
  count: number;
  service: string;
  status: string;
  /** Server-reported; null when the service gave no usable latency. */
  latency_ms: number | null;
  service_type?: string;
  stop_execution?: string;
}

export interface MessageRecord {
  state: string;
  /** null when the service sent something that is not a number. */
  status_code: number | null;
  node_id?: string;
  message_id?: string;
  /** When it arrived, in ms from the execution's start. */
  at_ms?: number;
}
