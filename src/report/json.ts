import type { Parsed } from '../core/flows/index.js';
import { combineWorkTrees, commonRolesDigest, type Shard } from '../core/runs/index.js';
import { compileSchema, pointerToPath } from '../core/text/schema.js';
import { summarise } from './run-report.js';
import { withShownMessages } from './shown.js';
import { missingShardsText } from './digest.js';
import type { RunReport, RunSelection, TestResult } from './model.js';

export { renderJson } from './json-text.js';

/** A JSON report read back (for `report merge`), checked against its schema; its messages escaped. */
export function parseReport(text: string, file: string, schema: object): Parsed<RunReport> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${file}: not JSON: ${(error as Error).message}` };
  }
  // JSON has no Infinity, but 1e999 parses as one: such a latency cannot be judged.
  const infinite = nonFiniteAt(value);
  if (infinite !== undefined) return { ok: false, error: `${file}: not a roleflow JSON report: ${infinite}: a number too large to judge (not finite)` };
  const validate = compileSchema(schema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? `${pointerToPath(first.instancePath)}: ` : '';
    return { ok: false, error: `${file}: not a roleflow JSON report: ${where}${first?.message ?? 'invalid'}` };
  }
  const report = value as RunReport;
  return { ok: true, value: { ...report, results: report.results.map(withShownMessages) } };
}

/** The path of the first number in `value` that is not finite (`results[0].wall_ms`), if any; iterative. */
function nonFiniteAt(value: unknown): string | undefined {
  const todo: { v: unknown; path: string }[] = [{ v: value, path: '' }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const { v, path } = next;
    if (typeof v === 'number' && !Number.isFinite(v)) return path || '(the whole report)';
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) todo.push({ v: v[i], path: `${path}[${i}]` });
    else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) todo.push({ v: (v as Record<string, unknown>)[keys[i]!], path: path === '' ? keys[i]! : `${path}.${keys[i]!}` });
    }
  }
  return undefined;
}

type MergeInput = { file: string; report: RunReport };

/**
 * The reports of the shards of one suite as one report: every result once (a test × transport in
 * two reports is an error), in file order; the earliest start, the latest finish. Shards must be
 * of one `--shard I/N` run, each at most once, and all of them unless `allowPartial` (the merged
 * report then lists the missing ones). Reports of whole runs merge without that check. The merged
 * report keeps `commit`, `selection` and `roles_digest` when every input records the same one,
 * and has none otherwise; its `work_tree` is dirty when any input's is (none when any lacks one).
 */
export function mergeReports(inputs: readonly MergeInput[], options: { allowPartial?: boolean } = {}): Parsed<RunReport> {
  const first = inputs[0];
  if (!first) return { ok: false, error: 'no reports to merge' };
  // By name: the embedded tenant listens on another port in every run.
  const other = inputs.find((i) => i.report.tenant.name !== first.report.tenant.name);
  if (other) {
    return { ok: false, error: `${other.file} is a report on tenant ${other.report.tenant.name}, ${first.file} on ${first.report.tenant.name}: merge the reports of one tenant` };
  }
  const seen = new Map<string, string>();
  const results: TestResult[] = [];
  for (const { file, report } of inputs) {
    for (const r of report.results) {
      const key = `${r.id}\u0000${r.transport}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) return { ok: false, error: `"${r.id}" [${r.transport}] is in both ${earlier} and ${file}: were two reports of the same shard given?` };
      seen.set(key, file);
      results.push(r);
    }
  }
  const shards = shardsOf(inputs);
  if (!shards.ok) return shards;
  const { merged, missing } = shards.value;
  if (missing.length > 0 && !options.allowPartial) {
    return { ok: false, error: `${missingShardsText(missing)}: give the report of every shard, or --allow-partial to merge without ${missing.length === 1 ? 'it' : 'them'}` };
  }
  results.sort((a, b) => compare(a.file, b.file) || a.line - b.line || compare(a.transport, b.transport));
  const started = inputs.map((i) => i.report.started_at).sort()[0]!;
  const finished = inputs.map((i) => i.report.finished_at).sort().at(-1)!;
  const {
    format_version,
    tool,
    tenant,
    shard: _shard,
    merged_shards: _merged,
    missing_shards: _missing,
    commit: _commit,
    selection: _selection,
    roles_digest: _roles,
    work_tree: _tree,
    ...base
  } = first.report;
  // A commit only when every shard tested the same one: shards of two commits are no one run of either.
  const commits = new Set(inputs.map((i) => i.report.commit));
  const commit = commits.size === 1 ? first.report.commit : undefined;
  // A selection only when every run was asked for the same tests: else the merge is of no one selection.
  const selections = new Set(inputs.map((i) => selectionKey(i.report.selection)));
  const selection = selections.size === 1 ? first.report.selection : undefined;
  // The Roles only when every run saw the same ones; the work tree dirty when any was.
  const roles = commonRolesDigest(inputs.map((i) => i.report.roles_digest));
  const trees = inputs.flatMap((i) => (i.report.work_tree ? [i.report.work_tree] : []));
  const workTree = trees.length === inputs.length ? combineWorkTrees(trees) : undefined;
  return {
    ok: true,
    value: {
      // Keys in the order of a run's report: the commit after the tenant.
      format_version,
      tool,
      tenant,
      ...(commit !== undefined && { commit }),
      ...(selection !== undefined && { selection }),
      ...(roles !== undefined && { roles_digest: roles }),
      ...(workTree !== undefined && { work_tree: workTree }),
      ...base,
      ...(merged.length > 0 && { merged_shards: merged }),
      ...(missing.length > 0 && { missing_shards: missing }),
      started_at: started,
      finished_at: finished,
      duration_ms: Math.max(0, Date.parse(finished) - Date.parse(started)),
      bailed: inputs.some((i) => i.report.bailed),
      interrupted: inputs.some((i) => i.report.interrupted === true),
      summary: summarise(results),
      results,
    },
  };
}

/**
 * What a merge of `inputs` (`mergeReports`) leaves out because they disagree, one line each for
 * stderr: the runs were not one run of one commit, one selection, one set of Roles, and `promote`
 * refuses the merged report.
 */
export function mergeWarnings(inputs: readonly MergeInput[]): string[] {
  const differ = (key: (report: RunReport) => string | undefined) => new Set(inputs.map((i) => key(i.report))).size > 1;
  const warnings: string[] = [];
  const refused = 'roleflow promote refuses it';
  if (differ((r) => r.commit)) warnings.push(`warning: the reports are of different commits (or some record none): the merged report records no commit, and ${refused}`);
  if (differ((r) => selectionKey(r.selection))) {
    warnings.push(`warning: the runs were asked for different tests (PATH arguments, --grep, --transport, or a flows folder): the merged report records no selection, and ${refused}`);
  }
  if (differ((r) => (r.roles_digest ? JSON.stringify(r.roles_digest) : undefined))) {
    warnings.push(`warning: the runs saw different Roles on the tenant (or some record none): the merged report records no Roles digest, and ${refused}`);
  }
  if (inputs.some((i) => i.report.work_tree === undefined) && inputs.some((i) => i.report.work_tree !== undefined)) {
    warnings.push(`warning: some reports do not record their work tree: the merged report records none, and ${refused}`);
  }
  return warnings;
}

/**
 * The shards the inputs hold (a merged report holds several), checked to be of one run: the same
 * total, each index once. `missing`: the indexes 1..N that none holds.
 */
function shardsOf(inputs: readonly MergeInput[]): Parsed<{ merged: Shard[]; missing: Shard[] }> {
  const held = inputs.map(({ file, report }) => ({ file, shards: report.merged_shards ?? (report.shard ? [report.shard] : []) }));
  const first = held.find((h) => h.shards.length > 0);
  if (!first) return { ok: true, value: { merged: [], missing: [] } };
  const reference = first.shards[0]!;
  const whole = held.find((h) => h.shards.length === 0);
  if (whole) {
    return { ok: false, error: `${whole.file} is the report of a whole run, ${first.file} of shard ${reference.index}/${reference.total}: merge the shards of one run` };
  }
  const byIndex = new Map<number, string>();
  for (const { file, shards } of held) {
    for (const s of shards) {
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
  return { ok: true, value: { merged: all.filter((s) => byIndex.has(s.index)), missing: all.filter((s) => !byIndex.has(s.index)) } };
}

function selectionKey(selection: RunSelection | undefined): string {
  return selection === undefined ? '' : JSON.stringify([selection.flows_dir, selection.paths, selection.grep ?? null, selection.transport ?? null]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
