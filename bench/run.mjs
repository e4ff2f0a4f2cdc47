// `node bench/run.mjs [--quick] [NAME...]`: run bench/*.bench.mjs one after another (those whose
// name contains a NAME, when given), show their output, then one table of every result line.
// A figure over its target is reported, not failed: the exit code is 1 only when a bench crashed
// or reported errors (a wrong answer is a bug, not a slow run).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { formatMs } from './lib.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const unknown = args.filter((a) => a.startsWith('-') && a !== '--quick');
if (unknown.length > 0) {
  console.error(`bench: unknown option ${unknown.join(', ')}; usage: node bench/run.mjs [--quick] [NAME...]`);
  process.exit(1);
}
const filters = args.filter((a) => !a.startsWith('-'));
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.mjs')).sort();
const chosen = filters.length === 0 ? all : all.filter((f) => filters.some((n) => f.includes(n)));
if (chosen.length === 0) {
  console.error(`bench: nothing matches ${filters.join(', ')}; the benches are: ${all.map(nameOf).join(', ')}`);
  process.exit(1);
}

const rows = [];
let failed = false;
for (const file of chosen) {
  console.log(`\n▶ ${nameOf(file)}${quick ? ' (quick)' : ''}`);
  const start = performance.now();
  const { code, results } = await runBench(file);
  console.log(`  (${formatMs(performance.now() - start)})`);
  if (code !== 0 || results.length === 0) {
    failed = true;
    rows.push({ bench: nameOf(file), verdict: code !== 0 ? `CRASH (exit ${code})` : 'CRASH (no result line)' });
  }
  for (const result of results) rows.push({ ...result, verdict: verdict(result) });
}
failed ||= rows.some((r) => r.verdict === 'ERRORS');

console.log('');
printTable(
  ['bench', 'figure', 'floor', 'ratio', 'target', 'result'],
  rows.map((r) => [r.bench, figure(r), floorFigure(r), r.ratio === undefined ? '-' : `${r.ratio}x${r.ratio_spread ? ` (${r.ratio_spread.join('–')})` : ''}`, targetFigure(r), r.verdict]),
);
process.exitCode = failed ? 1 : 0;

function nameOf(file) {
  return file.replace(/\.bench\.mjs$/, '');
}

// Human lines pass through; a JSON object with a `bench` member is a result.
function runBench(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${dir}${file}`, ...(quick ? ['--quick'] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
    const results = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      const result = parseResult(line);
      if (result) results.push(result);
      else console.log(`  ${line}`);
    });
    child.on('error', (err) => {
      console.error(`  ${file}: ${err.message}`);
      resolve({ code: 1, results });
    });
    child.on('close', (code, signal) => resolve({ code: code ?? signal, results }));
  });
}

function parseResult(line) {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line);
    return typeof value?.bench === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function verdict(r) {
  if (r.errors > 0) return 'ERRORS';
  const [figure, target] = r.ratio !== undefined ? [r.ratio, r.target] : [r.value, r.target];
  if (target === undefined || figure === undefined) return 'info';
  return figure <= target ? 'PASS' : 'OVER';
}

function figure(r) {
  if (r.value_ms !== undefined) return formatMs(r.value_ms) + (r.rps !== undefined ? ` (${r.rps.toLocaleString('en-US')}/s)` : '');
  return r.value === undefined ? '-' : `${r.value} ${r.unit ?? ''}`.trim();
}

function floorFigure(r) {
  if (r.floor_ms !== undefined) return formatMs(r.floor_ms) + (r.floor_rps !== undefined ? ` (${r.floor_rps.toLocaleString('en-US')}/s)` : '');
  return r.floor === undefined ? '-' : `${r.floor} ${r.unit ?? ''}`.trim();
}

function targetFigure(r) {
  if (r.target === undefined) return '-';
  return r.ratio !== undefined ? `≤ ${r.target}x` : `≤ ${r.target} ${r.unit ?? ''}`.trim();
}

function printTable(header, body) {
  const table = [header, ...body];
  const widths = header.map((_, c) => Math.max(...table.map((cells) => (cells[c] ?? '').length)));
  const line = (cells) => cells.map((cell, c) => (cell ?? '').padEnd(widths[c])).join('  ').trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const cells of body) console.log(line(cells));
}
