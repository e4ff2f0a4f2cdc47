import type { Parsed } from '../../core/flows/index.js';
import type { PassRateSource } from '../../core/runs/loop/index.js';
import { combineWorkTrees, commonRolesDigest, type Shard } from '../../core/runs/index.js';
import { missingShardsText } from '../digest.js';
import type { RunReport, RunSelection, ShardPlanRecord } from '../model.js';

/** What a merge keeps of each report but its results: small, whatever the number of results. */
export type ReportHead = Omit<RunReport, 'results' | 'summary' | 'latency'>;

/** The merged report but its results and what is counted from them (summary, gate, latency). */
export type MergedHead = Omit<RunReport, 'results' | 'summary' | 'latency' | 'gate'>;

export interface MergeOptions {
  /** `--allow-partial`: shards of the run may be missing (the merged report lists them). */
  allowPartial?: boolean;
  /**
   * `--prefer-last`: a run, then reruns of some of its tests. A test in several reports is no
   * error: the last one's result is kept (`history` has them all). The reports that hold shards
   * are the run (else the first report is); the others are reruns, left out of the shard checks
   * and of the run's selection.
   */
  preferLast?: boolean;
  /** `--min-pass-rate` of the merge: the merged run's gate (default: the reports' own, when they agree). */
  minPassRate?: number | undefined;
}

/**
 * The reports' heads, folded as they are read: one tenant (an error at once otherwise), then
 * (`merged`) the shards checked to be of one run and one plan, and what the reports agree on.
 */
export class MergeHeads {
  private readonly heads: { file: string; head: ReportHead }[] = [];

  constructor(private readonly options: MergeOptions = {}) {}

  /** The report's head; an error when it is of another tenant than the first. */
  add(file: string, head: ReportHead): Parsed<void> {
    const first = this.heads[0];
    // By name: the embedded tenant listens on another port in every run.
    if (first && head.tenant.name !== first.head.tenant.name) {
      return { ok: false, error: `${file} is a report on tenant ${head.tenant.name}, ${first.file} on ${first.head.tenant.name}: merge the reports of one tenant` };
    }
    this.heads.push({ file, head });
    return { ok: true, value: undefined };
  }

  /** Shards of the run dealt by different plans, as one line (checked before anything else: it explains the rest). */
  planConflict(): string | undefined {
    return planConflict(this.run());
  }

  /** When the report given `index`-th (0-based) started. */
  startedAt(index: number): string {
    return this.heads[index]!.head.started_at;
  }

  /** The file of the report given `index`-th (0-based). */
  fileAt(index: number): string {
    return this.heads[index]!.file;
  }

  /**
   * The merged head: a commit, a selection and a Roles digest only when every report (with
   * --prefer-last: every report of the run, for the selection) has the same one; the work tree
   * dirty when any is (none when any lacks one); the earliest start and the latest finish.
   */
  merged(): Parsed<MergedHead> {
    const all = this.heads;
    const first = all[0];
    if (!first) return { ok: false, error: 'no reports to merge' };
    const run = this.run();
    const shards = shardsOf(run);
    if (!shards.ok) return shards;
    const { merged, missing, plan } = shards.value;
    if (missing.length > 0 && !this.options.allowPartial) {
      return { ok: false, error: `${missingShardsText(missing)}: give the report of every shard, or --allow-partial to merge without ${missing.length === 1 ? 'it' : 'them'}` };
    }
    const agreed = <T>(values: T[], key: (v: T) => string = String) => (new Set(values.map(key)).size === 1 ? values[0] : undefined);
    const commit = agreed(all.map((h) => h.head.commit));
    const selection = agreed(run.map((h) => h.head.selection), selectionKey);
    const roles = commonRolesDigest(all.map((h) => h.head.roles_digest));
    const trees = all.flatMap((h) => (h.head.work_tree ? [h.head.work_tree] : []));
    const workTree = trees.length === all.length ? combineWorkTrees(trees) : undefined;
    const started = all.map((h) => h.head.started_at).sort()[0]!;
    const finished = all.map((h) => h.head.finished_at).sort().at(-1)!;
    const { format_version, tool, tenant } = first.head;
    return {
      ok: true,
      value: {
        format_version,
        tool,
        tenant,
        ...(commit !== undefined && { commit }),
        ...(selection !== undefined && { selection }),
        ...(roles !== undefined && { roles_digest: roles }),
        ...(workTree !== undefined && { work_tree: workTree }),
        ...(merged.length > 0 && { merged_shards: merged }),
        ...(missing.length > 0 && { missing_shards: missing }),
        ...(plan !== undefined && { shard_plan: plan }),
        started_at: started,
        finished_at: finished,
        duration_ms: Math.max(0, Date.parse(finished) - Date.parse(started)),
        bailed: all.some((h) => h.head.bailed),
        interrupted: all.some((h) => h.head.interrupted === true),
      },
    };
  }

  /**
   * What the merge leaves out because the reports disagree, one line each for stderr: they were
   * not one run of one commit, one selection, one set of Roles, and `promote` refuses the merge;
   * or their gates used different least pass rates, and no one of them judges the merged run.
   */
  warnings(): string[] {
    const differ = (heads: { head: ReportHead }[], key: (head: ReportHead) => string | undefined) => new Set(heads.map((h) => key(h.head))).size > 1;
    const all = this.heads;
    const warnings: string[] = [];
    const refused = 'roleflow promote refuses it';
    if (differ(all, (r) => r.commit)) warnings.push(`warning: the reports are of different commits (or some record none): the merged report records no commit, and ${refused}`);
    if (differ(this.run(), (r) => selectionKey(r.selection))) {
      warnings.push(`warning: the runs were asked for different tests (PATH arguments, --grep, --transport, tags, a rerun, or a flows folder): the merged report records no selection, and ${refused}`);
    }
    if (differ(all, (r) => (r.roles_digest ? JSON.stringify(r.roles_digest) : undefined))) {
      warnings.push(`warning: the runs saw different Roles on the tenant (or some record none): the merged report records no Roles digest, and ${refused}`);
    }
    const rates = [...new Set(all.flatMap((h) => (h.head.gate ? [h.head.gate.min_pass_rate] : [])))].sort((a, b) => a - b);
    if (rates.length > 1) {
      const given = this.options.minPassRate;
      const judged = given === undefined ? 'the merged report has no gate (give --min-pass-rate to judge it by one)' : `the merged run is judged by --min-pass-rate ${given}%`;
      warnings.push(`warning: the reports were judged by different pass rates (${rates.map((r) => `${r}%`).join(', ')}): ${judged}`);
    }
    if (all.some((h) => h.head.work_tree === undefined) && all.some((h) => h.head.work_tree !== undefined)) {
      warnings.push(`warning: some reports do not record their work tree: the merged report records none, and ${refused}`);
    }
    return warnings;
  }

  /**
   * The least pass rate the reports were judged by, when every report judged by one judged by the
   * same; and where it came from, when they all say the same.
   */
  passRate(): { min: number; setBy: PassRateSource | undefined } | undefined {
    const gates = this.heads.flatMap((h) => (h.head.gate ? [h.head.gate] : []));
    const rates = new Set(gates.map((g) => g.min_pass_rate));
    if (rates.size !== 1) return undefined;
    const sources = new Set(gates.map((g) => g.set_by));
    return { min: [...rates][0]!, setBy: sources.size === 1 ? [...sources][0] : undefined };
  }

  /** The reports of the run: all of them; with --prefer-last, those holding shards (else the first). */
  private run(): { file: string; head: ReportHead }[] {
    if (!this.options.preferLast) return this.heads;
    const sharded = this.heads.filter((h) => shardsHeld(h.head).length > 0);
    return sharded.length > 0 ? sharded : this.heads.slice(0, 1);
  }
}

function shardsHeld(head: ReportHead): Shard[] {
  return head.merged_shards ?? (head.shard ? [head.shard] : []);
}

/**
 * The shards the reports hold (a merged report holds several), checked to be of one run: the same
 * total, each index once, one plan (reports that record theirs). `missing`: the indexes 1..N that none holds.
 */
function shardsOf(held: readonly { file: string; head: ReportHead }[]): Parsed<{ merged: Shard[]; missing: Shard[]; plan?: ShardPlanRecord }> {
  const first = held.find((h) => shardsHeld(h.head).length > 0);
  if (!first) return { ok: true, value: { merged: [], missing: [] } };
  const reference = shardsHeld(first.head)[0]!;
  const whole = held.find((h) => shardsHeld(h.head).length === 0);
  if (whole) {
    return { ok: false, error: `${whole.file} is the report of a whole run, ${first.file} of shard ${reference.index}/${reference.total}: merge the shards of one run (a rerun of some tests: --prefer-last)` };
  }
  const conflict = planConflict(held);
  if (conflict !== undefined) return { ok: false, error: conflict };
  const planned = held.find((h) => h.head.shard_plan !== undefined);
  const byIndex = new Map<number, string>();
  for (const { file, head } of held) {
    for (const s of shardsHeld(head)) {
      if (s.index > s.total) return { ok: false, error: `${file} holds shard ${s.index}/${s.total}, which no --shard I/N run makes` };
      if (s.total !== reference.total) {
        return { ok: false, error: `${file} holds shard ${s.index}/${s.total} and ${first.file} shard ${reference.index}/${reference.total}: the shards of one run share their total N (--shard I/N)` };
      }
      const earlier = byIndex.get(s.index);
      if (earlier !== undefined) return { ok: false, error: `shard ${s.index}/${s.total} is in both ${earlier} and ${file}` };
      byIndex.set(s.index, file);
    }
  }
  const all = Array.from({ length: reference.total }, (_, i) => ({ index: i + 1, total: reference.total }));
  const plan = planned?.head.shard_plan;
  return { ok: true, value: { merged: all.filter((s) => byIndex.has(s.index)), missing: all.filter((s) => !byIndex.has(s.index)), ...(plan && { plan }) } };
}

/** Two reports of shards dealt by different plans (those that record theirs), as one line; undefined when none differ. */
function planConflict(held: readonly { file: string; head: ReportHead }[]): string | undefined {
  const sharded = held.filter((h) => shardsHeld(h.head).length > 0);
  const planned = sharded.find((h) => h.head.shard_plan !== undefined);
  const other = planned && sharded.find((h) => h.head.shard_plan !== undefined && h.head.shard_plan.digest !== planned.head.shard_plan!.digest);
  if (!planned || !other) return undefined;
  return `${other.file} and ${planned.file} are shards of different plans (their shard_plan digests differ: other tests, other --timings, or another roleflow dealt them): merge the shards of one run`;
}

function selectionKey(selection: RunSelection | undefined): string {
  if (selection === undefined) return '';
  const { flows_dir, paths, grep, transport, tags, exclude_tags, rerun } = selection;
  return JSON.stringify([flows_dir, paths, grep ?? null, transport ?? null, tags ?? [], exclude_tags ?? [], rerun ?? null]);
}
