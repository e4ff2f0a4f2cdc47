import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport, TestResult } from '../../src/report/model.js';

/**
 * A plausible passing HTTPS result, as `roleflow test` writes one: one repeat, two logged steps,
 * one output assertion. `n` picks the test (its file and line) and its latencies.
 */
export function sampleResult(n: number, files = 200): TestResult {
  const file = `flows/area-${n % files}.yaml`;
  const name = `answers ticket ${n}`;
  const wall = 100 + (n % 97);
  return {
    id: `${file} > ${name}`,
    file,
    line: 4 + Math.floor(n / files) * 6,
    col: 5,
    flow: `flow-${n % 7}`,
    name,
    transport: 'https',
    status: 'pass',
    message: '1 of 1 repeat passed',
    repeat: 1,
    min_pass: 1,
    passed: 1,
    wall_ms: { count: 1, min: wall, p50: wall, p95: wall, max: wall },
    step_latency_ms: { retriever: { count: 1, min: 15, p50: 15, p95: 15, max: 15 }, llm: { count: 1, min: n % 50, p50: n % 50, p95: n % 50, max: n % 50 } },
    across_repeats: [],
    repeats: [
      {
        index: 1,
        status: 'pass',
        execution: 'ok',
        ended_by: 'until',
        wall_ms: wall,
        steps: [
          { count: 1, service: 'retriever', status: 'completed', latency_ms: 15, service_type: 'ai_services' },
          { count: 2, service: 'llm', status: 'completed', latency_ms: n % 50, service_type: 'ai_services' },
        ],
        messages: [],
        assertions: [{ kind: 'output', label: 'results[0].reply icontains "refund"', status: 'pass', message: 'results[0].reply contains "refund" (ignoring case)', line: 9, col: 11 }],
        ids: { flow_id: `flow-${n}`, execution_id: `exec-${n.toString(16).padStart(8, '0')}` },
      },
    ],
  };
}

/** Shard `index` of `total` holding `results`, as `roleflow test --shard` writes it. */
export function shardReport(index: number, total: number, results: TestResult[]): RunReport {
  return {
    format_version: 1,
    tool: { name: 'roleflow', version: '0.0.0-test' },
    tenant: { name: 'staging', base_url: 'https://staging.example' },
    commit: 'a'.repeat(40),
    selection: { flows_dir: 'flows', paths: [] },
    work_tree: { state: 'clean' },
    shard: { index, total },
    shard_plan: { digest: `sha256:${'b'.repeat(64)}`, by: 'timings' },
    started_at: `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}.000Z`,
    finished_at: `2026-01-01T00:10:${String(index % 60).padStart(2, '0')}.000Z`,
    duration_ms: 600_000,
    bailed: false,
    interrupted: false,
    summary: { tests: results.length, passed: results.length, failed: 0, errored: 0, skipped: 0, not_run: 0, executions: results.length },
    results,
  };
}

/** `shards` reports of `each` results, written into `dir` as shard-N.json (as the JSON reporter writes them). */
export async function writeShards(dir: string, shards: number, each: number): Promise<string[]> {
  const files: string[] = [];
  for (let s = 0; s < shards; s++) {
    const results = Array.from({ length: each }, (_, i) => sampleResult(i * shards + s));
    const file = join(dir, `shard-${s + 1}.json`);
    await writeFile(file, `${JSON.stringify(shardReport(s + 1, shards, results), null, 2)}\n`);
    files.push(file);
  }
  return files;
}
