import type { Issue } from '../errors.js';
import type { FlowTestFile, Transport } from '../flows/index.js';

/** The tenant a `test` would run on, as far as an offline check knows it. */
export interface TenantTransports {
  name: string;
  hasWs: boolean;
}

const BOTH: readonly Transport[] = ['https', 'ws'];

/**
 * Tests that would test less than they say (`validate`'s warnings), skipped tests aside: one that
 * runs only over HTTPS while it asserts on outputs (the execution log carries none: every output
 * assertion is skipped), at its first output assertion; one that runs only over WebSocket on a
 * tenant without a ws_url (it is skipped), at the test. Without `tenant`, only what the files
 * declare is judged.
 */
export function transportWarnings(file: FlowTestFile, tenant: TenantTransports | undefined): Issue[] {
  const available: readonly Transport[] = tenant === undefined || tenant.hasWs ? BOTH : ['https'];
  const warnings: Issue[] = [];
  for (const test of file.tests) {
    if (test.skip !== undefined) continue;
    const runs = (test.transports ?? available).filter((t) => available.includes(t));
    const first = test.expect.outputs[0];
    if (runs.length === 1 && runs[0] === 'https' && first !== undefined) {
      const n = test.expect.outputs.length;
      const them = n === 1 ? 'its output assertion is' : `its ${n} output assertions are`;
      // Its transport leaves ws out, or the tenant has no ws_url.
      const declared = test.transports !== undefined && !test.transports.includes('ws');
      const why = declared ? ' (transport: https)' : `, as tenant ${tenant!.name} has no ws_url,`;
      const fix = declared ? 'run it over ws too' : 'give the tenant a ws_url';
      warnings.push({
        file: test.file,
        line: first.line,
        col: first.col,
        message: `warning: test "${test.name}" runs only over HTTPS${why} and the HTTPS execution log carries no outputs: ${them} always skipped; ${fix}, or assert on steps instead`,
      });
    }
    if (runs.length === 0) {
      warnings.push({
        file: test.file,
        line: test.line,
        col: test.col,
        message: `warning: test "${test.name}" runs only over WebSocket, and tenant ${tenant!.name} has no ws_url: it is always skipped (a run in which no test ran exits 1)`,
      });
    }
  }
  return warnings;
}
