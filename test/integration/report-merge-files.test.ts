import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/core/text/redact.js';
import { mergeReports, renderJson } from '../../src/report/json.js';
import type { RunReport } from '../../src/report/model.js';
import { mergeReportFiles } from '../../src/run/report/report-merge.js';
import { tempDir } from '../helpers/cli.js';
import { sampleResult, shardReport, writeShards } from './merge-kit.js';

const options = { allowPartial: false, preferLast: false, redactor: makeRedactor([]) };

describe('report merge, streamed from the files', () => {
  it('writes the report an in-memory merge makes, byte for byte, and hands each result on in order', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const files = await writeShards(dir, 3, 40);
      const inputs = await Promise.all(files.map(async (file) => ({ file, report: JSON.parse(await readFile(file, 'utf8')) as RunReport })));
      const expected = mergeReports(inputs);
      if (!expected.ok) throw new Error(expected.error);
      const seen: string[] = [];
      const read: string[] = [];
      const merged = await mergeReportFiles(
        { ...options, cwd: dir, files, out: 'out/merged.json' },
        { result: (r) => seen.push(r.id), read: (file, n) => read.push(`${file} ${n}`) },
      );
      expect(await readFile(join(dir, 'out/merged.json'), 'utf8')).toBe(renderJson(expected.value));
      expect(seen).toEqual(expected.value.results.map((r) => r.id));
      expect(read).toEqual(files.map((f) => `${f} 40`));
      expect(merged.report.summary).toEqual(expected.value.summary);
      expect(merged.totals.latency).toEqual(expected.value.latency);
    } finally {
      await cleanup();
    }
  });

  it('reads reports whose members come after their results, and refuses an invalid result naming it', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const { results, ...head } = shardReport(1, 1, [sampleResult(1), sampleResult(2)]);
      await writeFile(join(dir, 'late.json'), JSON.stringify({ results, ...head }));
      const merged = await mergeReportFiles({ ...options, cwd: dir, files: ['late.json'], out: 'm.json' });
      expect(merged.report.summary.tests).toBe(2);
      const broken = { ...head, results: [sampleResult(1), { ...sampleResult(2), status: 'maybe' }] };
      await writeFile(join(dir, 'broken.json'), JSON.stringify(broken));
      await expect(mergeReportFiles({ ...options, cwd: dir, files: ['broken.json'], out: 'm.json' })).rejects.toThrow(
        'broken.json: not a roleflow JSON report: results[1].status: must be equal to one of the allowed values',
      );
      await writeFile(join(dir, 'cut.json'), JSON.stringify(broken).slice(0, 500));
      await expect(mergeReportFiles({ ...options, cwd: dir, files: ['cut.json'], out: 'm.json' })).rejects.toThrow(/cut\.json.*not JSON/);
    } finally {
      await cleanup();
    }
  });

  it('refuses a number that is not finite (1e999) in a result or in the head, naming the file and where', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const report = shardReport(1, 1, [sampleResult(1), sampleResult(2)]);
      const text = JSON.stringify(report, null, 2);
      // The second result's first repeat: read on its own, piece by piece, and still named in full.
      const second = text.lastIndexOf('"wall_ms": ');
      await writeFile(join(dir, 'inf-result.json'), `${text.slice(0, second)}"wall_ms": 1e999${text.slice(second).replace(/^"wall_ms": \d+/, '')}`);
      await expect(mergeReportFiles({ ...options, cwd: dir, files: ['inf-result.json'], out: 'm.json' })).rejects.toThrow(
        /^inf-result\.json: not a roleflow JSON report: results\[1\]\.repeats\[0\]\.wall_ms: a number too large to judge \(not finite\)$/,
      );
      await writeFile(join(dir, 'inf-head.json'), text.replace(/"duration_ms": \d+/, '"duration_ms": -1e999'));
      await expect(mergeReportFiles({ ...options, cwd: dir, files: ['inf-head.json'], out: 'm.json' })).rejects.toThrow(
        /^inf-head\.json: not a roleflow JSON report: duration_ms: a number too large to judge \(not finite\)$/,
      );
    } finally {
      await cleanup();
    }
  });
});
