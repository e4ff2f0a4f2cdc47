// `node bench/run.mjs [--quick] [--markdown FILE] [NAME...]`: run bench/*.bench.mjs one after
// another (those whose name contains a NAME, when given), show their output, then one table of
// every result line; `--markdown FILE` also writes its rows with a target as a Markdown table,
// dated, for README.md.
// A figure over its target is reported, not failed: the exit code is 1 only when a bench crashed
// or reported errors (a wrong answer is a bug, not a slow run).
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { formatMs } from './lib.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const markdownAt = args.indexOf('--markdown');
const markdownFile = markdownAt === -1 ? undefined : args[markdownAt + 1];
const rest = args.filter((a, i) => !(markdownAt !== -1 && (i === markdownAt || i === markdownAt + 1)));
const unknown = rest.filter((a) => a.startsWith('-') && a !== '--quick');
if (unknown.length > 0 || (markdownAt !== -1 && (markdownFile === undefined || markdownFile.startsWith('-')))) {
  console.error(`bench: ${unknown.length > 0 ? `unknown option ${unknown.join(', ')}` : '--markdown needs a file'}; usage: node bench/run.mjs [--quick] [--markdown FILE] [NAME...]`);
  process.exit(1);
}
const filters = rest.filter((a) => !a.startsWith('-'));
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.mjs')).sort();
const chosen = filters.length === 0 ? all : all.filter((f) => filters.some((n) => f.includes(n)));
if (chosen.length === 0) {
  console.error(`bench: nothing matches ${filters.join(', ')}; the benches are: ${all.map(nameOf).join(', ')}`);
  process.exit(1);
}

const began = new Date();
const loadBefore = loadavg()[0];
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
const header = ['bench', 'figure', 'floor', 'ratio (spread)', 'target', 'result'];
const body = rows.map((r) => [r.bench, figure(r), floorFigure(r), ratioFigure(r), targetFigure(r), r.verdict]);
printTable(header, body);
if (markdownFile !== undefined) {
  const minutes = Math.round((Date.now() - began.getTime()) / 60_000);
  const when = `${began.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const machine = `${cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end`;
  const cell = (text) => text.replace(/\|/g, '\\|');
  const lines = [
    `${quick ? '\`node bench/run.mjs --quick\`' : '\`npm run bench\`'}, ${when} (${minutes} min), Node ${process.version}, ${machine}:`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    // The rows with a target (README.md's table is short): the info rows are in the run's output.
    ...body.filter((cells) => cells[5] !== 'info').map((cells) => `| ${cells.map(cell).join(' | ')} |`),
    '',
  ];
  writeFileSync(markdownFile, lines.join('\n'));
  console.log(`\n(the table in Markdown: ${markdownFile})`);
}
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

// `value_target` judges the figure itself; `target` judges the ratio (or, without one, the figure).
function verdict(r) {
  if (r.errors > 0) return 'ERRORS';
  const [figure, target] = r.value_target !== undefined ? [r.value ?? r.value_ms, r.value_target] : r.ratio !== undefined ? [r.ratio, r.target] : [r.value, r.target];
  if (target === undefined || figure === undefined) return 'info';
  return figure <= target ? 'PASS' : 'OVER';
}

function ratioFigure(r) {
  if (r.ratio === undefined) return '-';
  return `${r.ratio}x${r.ratio_spread ? ` (${r.ratio_spread.join('–')})` : ''}`;
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
  if (r.value_target !== undefined) return r.value_ms !== undefined ? `≤ ${formatMs(r.value_target)}` : `≤ ${r.value_target} ${r.unit ?? ''}`.trim();
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
