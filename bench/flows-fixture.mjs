// Shared pieces of flows.bench.mjs: the simulated flows the emulator child serves (flows-serve.mjs)
// and the flow test files `roleflow test` runs against them.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The timed flow's steps, in order: what the report's server-reported latencies must equal. */
export const TIMED_STEPS = [
  { service: 'retriever', latencyMs: 50 },
  { service: 'llm', latencyMs: 120 },
  { service: 'formatter', latencyMs: 30 },
];

/** The slow flow's steps: an execution of it takes 2 s on the tenant, as a real model's call may. */
export const SLOW_STEPS = [
  { service: 'retrieve', latencyMs: 500 },
  { service: 'generate', latencyMs: 1500 },
];

/** How long an execution of the slow flow takes on the tenant, from its start to its last step's end. */
export const SLOW_MS = SLOW_STEPS.reduce((sum, s) => sum + s.latencyMs, 0);

/**
 * `zero`: two steps of latency 0, so an execution is nothing but the runner's own work and the round
 * trips. `timed`: TIMED_STEPS. `slow`: SLOW_STEPS. `${*}` echoes the inputs back, so a test can
 * check it got its own.
 */
export const FLOWS = {
  flows: {
    zero: {
      steps: [
        { service: 'first', latency: 0 },
        { service: 'second', latency: 0 },
      ],
      outputs: { results: ['${*}'] },
    },
    timed: {
      steps: TIMED_STEPS.map((s) => ({ service: s.service, latency: s.latencyMs })),
      outputs: { results: ['${*}'] },
    },
    slow: {
      steps: SLOW_STEPS.map((s) => ({ service: s.service, latency: s.latencyMs })),
      outputs: { results: ['${*}'] },
    },
  },
};

export const ZERO_STEPS = FLOWS.flows.zero.steps.length;

/**
 * `count` tests of the `zero` flow in `dir` (emptied first), 50 to a file, each run `repeat` times.
 * Each is over at its last step (HTTPS) or last completed message (WebSocket), so no quiet period
 * is waited out, and checks something on either transport: the step count, or its own input back.
 */
export function writeZeroSuite(dir, count, repeat = 1) {
  const perFile = 50;
  resetDir(dir);
  for (let first = 0, file = 0; first < count; first += perFile, file++) {
    const tests = [];
    for (let i = first; i < Math.min(count, first + perFile); i++) {
      tests.push(
        `  - name: case ${i}\n` +
          `    inputs: { n: "${i}" }\n` +
          (repeat > 1 ? `    repeat: ${repeat}\n` : '') +
          '    expect:\n' +
          `      outputs: [{ path: "results[0].n", equals: "${i}" }]\n` +
          `      steps: { count: ${ZERO_STEPS}, each: { status: completed } }\n`,
      );
    }
    writeFileSync(join(dir, `zero-${String(file).padStart(3, '0')}.yaml`), suiteHeader('zero', `{ steps: ${ZERO_STEPS}, messages: ${ZERO_STEPS} }`) + tests.join(''));
  }
}

/** One test of the `timed` flow, `repeat` times; over at the last step or the last node's message. */
export function writeTimedSuite(dir, repeat) {
  resetDir(dir);
  const last = TIMED_STEPS.length;
  writeFileSync(
    join(dir, 'timed.yaml'),
    suiteHeader('timed', `{ steps: ${last}, node: node-${last} }`) +
      '  - name: timed steps\n' +
      '    inputs: { n: "timed" }\n' +
      `    repeat: ${repeat}\n` +
      '    expect:\n' +
      '      outputs: [{ path: "results[0].n", equals: timed }]\n' +
      `      steps: { count: ${last}, sequence: [${TIMED_STEPS.map((s) => s.service).join(', ')}] }\n`,
  );
}

/**
 * `count` tests of the `slow` flow over HTTPS in `dir` (emptied first), 50 to a file, each over at
 * its last step and checking the steps the log holds (HTTPS execution logs carry no outputs).
 */
export function writeSlowSuite(dir, count) {
  const perFile = 50;
  resetDir(dir);
  for (let first = 0, file = 0; first < count; first += perFile, file++) {
    const tests = [];
    for (let i = first; i < Math.min(count, first + perFile); i++) {
      tests.push(`  - name: slow ${i}\n    inputs: { n: "${i}" }\n    expect:\n      steps: { count: ${SLOW_STEPS.length}, sequence: [${SLOW_STEPS.map((s) => s.service).join(', ')}], each: { status: completed } }\n`);
    }
    writeFileSync(join(dir, `slow-${String(file).padStart(3, '0')}.yaml`), suiteHeader('slow', `{ steps: ${SLOW_STEPS.length} }`, 'https') + tests.join(''));
  }
}

function suiteHeader(flow, until, transport = '[https, ws]') {
  return `flow: ${flow}\ntransport: ${transport}\ndefaults:\n  timeout: 10s\n  until: ${until}\ntests:\n`;
}

function resetDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
