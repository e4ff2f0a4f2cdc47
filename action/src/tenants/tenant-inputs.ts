import { ActionInputError } from '../toolkit.js';

/**
 * Which tenants a step works on, from the `tenant` (one name per line) and `all-tenants` inputs,
 * and for `command: promote` from `from` and `to`.
 */
export interface TenantSelection {
  /** Names from the `tenant` input, in order, each once. Empty: the config's default. */
  names: string[];
  /** `all-tenants: true`: every tenant of the config but the embedded `local`. */
  all: boolean;
}

/** `promote`'s inputs: tenant `from`'s test report `report` gates applying to tenant `to`. */
export interface PromoteInputs {
  from: string;
  to: string;
  /** Relative to the working directory. */
  report: string;
}

/** The `tenant` input: one name per line (blank lines and surrounding blanks ignored), each once. */
export function parseTenantNames(text: string): string[] {
  const names = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  for (const name of names) {
    if (/\s/.test(name)) throw new ActionInputError(`input "tenant": "${name}" is not a tenant name (one name per line)`);
  }
  return [...new Set(names)];
}

/** A run over several tenants: `all-tenants`, or more than one name. */
export function isSeveral(selection: TenantSelection): boolean {
  return selection.all || selection.names.length > 1;
}

/** The roleflow options that select the tenants: `--tenant` for each name, and `--all-tenants`. */
export function tenantFlags(selection: TenantSelection): string[] {
  return [...selection.names.flatMap((name) => ['--tenant', name]), ...(selection.all ? ['--all-tenants'] : [])];
}

/**
 * The name a run over several tenants goes by in its comment's marker and its temp files:
 * `all-tenants` (plus any named besides), else the names in the order given, joined by `+` (`_`
 * in the marker and file names).
 */
export function severalTenantsName(selection: TenantSelection): string {
  return [...(selection.all ? ['all-tenants'] : []), ...selection.names].join('+');
}

/**
 * The checks between inputs: several tenants are for `plan`, `apply` and `drift` (a matrix of jobs
 * tests one tenant each); `promote` names its tenants in `from` and `to`.
 */
export function checkTenantInputs(command: string, selection: TenantSelection, promote: Partial<PromoteInputs>): PromoteInputs | undefined {
  if (command === 'promote') {
    const missing = (['from', 'to', 'report'] as const).filter((name) => !promote[name]);
    if (missing.length > 0) throw new ActionInputError(`command: promote needs the input${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`);
    if (selection.names.length > 0 || selection.all) {
      throw new ActionInputError('command: promote takes its tenants from the "from" and "to" inputs, not "tenant" or "all-tenants"');
    }
    return { from: promote.from!, to: promote.to!, report: promote.report! };
  }
  const stray = (['from', 'to', 'report'] as const).filter((name) => promote[name]);
  if (stray.length > 0) throw new ActionInputError(`input "${stray[0]}" is for command: promote, not ${command}`);
  if (isSeveral(selection) && !['plan', 'apply', 'drift'].includes(command)) {
    throw new ActionInputError(
      `command: ${command} works on one tenant: several tenants (${selection.all ? 'all-tenants' : 'more than one name in "tenant"'}) are for plan, apply and drift; run ${command} in a matrix of jobs, one tenant each`,
    );
  }
  return undefined;
}
