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

/**
 * `zero`: two steps of latency 0, so an execution is nothing but the runner's own work and the round
 * trips. `timed`: TIMED_STEPS. `${*}` echoes the inputs back, so a test can check it got its own.
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

function suiteHeader(flow, until) {
  return `flow: ${flow}\ntransport: [https, ws]\ndefaults:\n  timeout: 10s\n  until: ${until}\ntests:\n`;
}

function resetDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
