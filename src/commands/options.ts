import { Option } from 'clipanion';
import * as t from 'typanion';

/**
 * The options several commands share, one factory each: a command declares them as fields
 * (`roles = rolesOption();`), so each command's options stand in its own class.
 */

/** `--tenant NAME`, repeatable (`plan`, `apply`, `test` run over several). */
export const tenantsOption = () =>
  Option.Array('--tenant', {
    description: 'Tenant name from the config (default: ROLEFLOW_TENANT, else default_tenant, else the embedded "local"); plan, apply and test take it more than once',
  });

export const baseUrlOption = () => Option.String('--base-url', { description: 'Tenant base URL, overriding the config' });

export const wsUrlOption = () => Option.String('--ws-url', { description: 'Tenant WebSocket URL, overriding the config' });

export const allTenantsOption = () => Option.Boolean('--all-tenants', false, { description: 'Every tenant of the config (not the embedded "local" unless --tenant local names it)' });

export const targetOption = () => Option.Array('--target', { description: 'Only the Roles with this name or glob (repeatable): a partial plan' });

export const rolesOption = () => Option.String('--roles', { description: 'Folder of role files (default: roles.dir of the config, else roles)' });

export const pruneOption = () => Option.Boolean('--prune', { description: 'Delete remote Roles that have no role file (--no-prune overrides the config)' });

export const allowEmptyPruneOption = () => Option.Boolean('--allow-empty-prune', false, { description: 'Let --prune delete every Role when there are no role files at all' });

/** `--concurrency N`, a whole number from 1 to `max`. */
export const concurrencyOption = (description: string, max = 64) => numberOption('--concurrency', description, { min: 1, max, integer: true });

/** Requests at once when Roles are applied. */
export const applyConcurrencyOption = () => concurrencyOption('Requests at once (default: roles.concurrency of the config, else 4)');

export const autoApproveOption = (description: string) => Option.Boolean('--auto-approve', false, { description });

export const jsonOption = (description: string) => Option.Boolean('--json', false, { description });

export const reporterOption = (description: string) => Option.Array('--reporter', [], { description });

export const thresholdOption = (description: string) => Option.String('--threshold', '20%', { description });

export const failOnRegressionOption = (description: string) => Option.Boolean('--fail-on-regression', false, { description });

export const passWithNoTestsOption = (description: string) => Option.Boolean('--pass-with-no-tests', false, { description });

interface NumberRange {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
}

const numberIn = (range: NumberRange) => t.cascade(t.isNumber(), [...(range.integer === true ? [t.isInteger()] : []), t.isInInclusiveRange(range.min, range.max)]);

/** A number in `range` typed after `flag`; undefined when not given. */
export const numberOption = (flag: string, description: string, range: NumberRange) => Option.String(flag, { description, validator: numberIn(range) });

/** A number in `range` typed after `flag`, else `initial`. */
export const numberOptionOr = (flag: string, initial: string, description: string, range: NumberRange) => Option.String(flag, initial, { description, validator: numberIn(range) });
