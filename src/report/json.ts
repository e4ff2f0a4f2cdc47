import type { Parsed } from '../core/flows/index.js';
import { compileSchema, pointerToPath } from '../core/schema.js';
import { summarise } from './build.js';
import type { RunReport, TestResult } from './model.js';

/** The JSON report (`schemas/report.schema.json`). */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** A JSON report read back (for `report merge`), checked against its schema. */
export function parseReport(text: string, file: string, schema: object): Parsed<RunReport> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${file}: not JSON: ${(error as Error).message}` };
  }
  const validate = compileSchema(schema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? `${pointerToPath(first.instancePath)}: ` : '';
    return { ok: false, error: `${file}: not a roleflow JSON report: ${where}${first?.message ?? 'invalid'}` };
  }
  return { ok: true, value: value as RunReport };
}

/**
 * The reports of the shards of one suite as one report: every result once (a test × transport in
 * two reports is an error), in file order; the earliest start, the latest finish.
 */
export function mergeReports(inputs: readonly { file: string; report: RunReport }[]): Parsed<RunReport> {
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
  results.sort((a, b) => compare(a.file, b.file) || a.line - b.line || compare(a.transport, b.transport));
  const started = inputs.map((i) => i.report.started_at).sort()[0]!;
  const finished = inputs.map((i) => i.report.finished_at).sort().at(-1)!;
  const shards = inputs.flatMap((i) => i.report.merged_shards ?? (i.report.shard ? [i.report.shard] : []));
  const { shard: _shard, merged_shards: _merged, ...base } = first.report;
  return {
    ok: true,
    value: {
      ...base,
      ...(shards.length > 0 && { merged_shards: shards }),
      started_at: started,
      finished_at: finished,
      duration_ms: Math.max(0, Date.parse(finished) - Date.parse(started)),
      bailed: inputs.some((i) => i.report.bailed),
      summary: summarise(results),
      results,
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
