/**
 * The everyday test loop, the pure parts: rerunning what failed (`lastRunRecord`, `lastFailed`,
 * `failedIn`: `.roleflow/last-run.json`, `--last-failed`, `--failed-from`), selecting by tag
 * (`tagsSelect`), and judging a suite as a whole (`judgePassRate`: `--min-pass-rate`).
 */
export {
  lastRunRecord,
  withLastRun,
  parseLastRun,
  lastFailed,
  failedIn,
  rerunKey,
  type LastRunFile,
  type LastRunRecord,
  type LastRunTest,
  type RerunSet,
  type RerunResult,
} from './rerun.js';
export { tagsSelect, badTagFlag, TAG_PATTERN, type TagFilter } from './tags.js';
export { parsePassRate, judgePassRate, passRateText, type PassRateGate, type PassRateSource, type RateCounts } from './pass-rate.js';
