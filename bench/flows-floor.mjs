// The runner-overhead floor as a process, so it pays what `roleflow test` pays (start-up, JIT
// warm-up) and both are measured alike: `node flows-floor.mjs https|ws CASES CONCURRENCY BASE_URL
// WS_URL`, the token in ROLEFLOW_TOKEN. Runs CASES executions of the `zero` flow with bare clients
// and exits 1 on the first wrong answer.
import { barePool, httpsCase, runConcurrent, wsCase } from './flows-bare.mjs';
import { ZERO_STEPS } from './flows-fixture.mjs';

const [transport, cases, concurrency, baseUrl, wsUrl] = process.argv.slice(2);
const token = process.env.ROLEFLOW_TOKEN;
const count = Number(cases);
const limit = Number(concurrency);

try {
  if (transport === 'https') {
    const pool = barePool(baseUrl, limit);
    await runConcurrent(count, limit, (i) => httpsCase(pool, token, 'zero', { n: String(i) }, ZERO_STEPS));
    await pool.close();
  } else {
    await runConcurrent(count, limit, (i) => wsCase(wsUrl, token, 'zero', { n: String(i) }, ZERO_STEPS));
  }
} catch (error) {
  console.error(`flows floor (${transport}): ${error.message}`);
  process.exit(1);
}
