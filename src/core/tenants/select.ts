import { configuredTenant, type Config } from '../config/config.js';
import { RoleflowError } from '../errors.js';
import { quote } from '../roles/display.js';
import { closest } from '../text/schema.js';

/** The embedded tenant's name: never part of `--all-tenants` unless named. */
const LOCAL = 'local';

/**
 * The tenants of a run over several, in the order they are applied: those `--tenant` names, in
 * the order given, then (`--all-tenants`) every other tenant of the config in its order, except
 * the embedded `local`. Each once. A name that is neither configured nor `local` is an error with
 * a guess, before anything is sent; so is `--all-tenants` with no tenant configured.
 */
export function selectTenants(config: Config, flags: { named: readonly string[]; all: boolean }): string[] {
  const known = [LOCAL, ...Object.keys(config.tenants)];
  for (const name of flags.named) {
    if (name === LOCAL || configuredTenant(config, name) !== undefined) continue;
    const guess = closest(name, known);
    throw new RoleflowError(
      `unknown tenant "${name}"${config.file ? ` in ${config.file}` : ''}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}; known: ${known.join(', ')}`,
      'config',
    );
  }
  const configured = flags.all ? Object.keys(config.tenants).filter((name) => name !== LOCAL) : [];
  const names = [...new Set([...flags.named, ...configured])];
  if (names.length === 0) throw new RoleflowError(`--all-tenants: no tenant is configured under tenants:${config.file ? ` in ${config.file}` : ''}`, 'config');
  return names;
}

/**
 * Why saved plan `planFile` cannot go to its tenants `names` today: one of them is no longer in
 * the config (one line naming the plan file), or undefined. The embedded `local` is always there.
 */
export function savedPlanUnknownTenant(planFile: string, names: readonly string[], config: Config): string | undefined {
  const gone = names.find((name) => name !== 'local' && configuredTenant(config, name) === undefined);
  if (gone === undefined) return undefined;
  const known = ['local', ...Object.keys(config.tenants)].join(', ');
  return `the saved plan ${planFile} names tenant ${quote(gone)}, which is not in ${config.file ?? 'the config'} (known: ${known}); nothing was sent: add it back to the config, or make a new plan`;
}
