import { ExitCode } from '../../core/exit-codes.js';
import { isTenantFailure } from '../../core/tenants/index.js';

const WENT: Record<number, string> = { [ExitCode.Ok]: 'passed', [ExitCode.TestsFailed]: 'had failed tests', [ExitCode.Error]: 'ran no test' };

/**
 * The flow tests against several tenants, one after the other (`testOne` is the run of one
 * tenant, ending in its exit code). A tenant that cannot run tests stops the run there (its error
 * said, exit of its kind); an interrupted one stops it (130); else 3 when any tenant had a failed
 * test, else 1 when one ran no test (see `test`). The closing `Tenants:` line says how each went, those not attempted included.
 */
export async function testTenantsInOrder(
  names: readonly string[],
  testOne: (name: string, index: number) => Promise<number>,
  say: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const went: string[] = [];
  const close = (extra: string[]) => say.out(`Tenants: ${[...went, ...extra].join('; ')}.`);
  let worst: number = ExitCode.Ok;
  for (const [i, name] of names.entries()) {
    let code: number;
    try {
      code = await testOne(name, i);
    } catch (error) {
      if (!isTenantFailure(error)) throw error;
      say.err(`error: ${error.message}`);
      const rest = names.slice(i + 1);
      close([`${name} could not be tested`, ...(rest.length > 0 ? [`not attempted: ${rest.join(', ')}`] : [])]);
      return error.exitCode;
    }
    went.push(`${name} ${WENT[code] ?? 'was interrupted'}`);
    if (code === ExitCode.Interrupted) return code;
    if (code !== ExitCode.Ok && worst !== ExitCode.TestsFailed) worst = code;
  }
  close([]);
  return worst;
}
