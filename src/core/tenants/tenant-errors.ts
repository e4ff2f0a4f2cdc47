import { InvalidFilesError, RoleflowError } from '../errors.js';
import { quote } from '../roles/display.js';

/**
 * Whether `error` is one tenant's failure in a run over several (it could not be reached, refused
 * the token, answered with an error or not at all, an apply step failed): the other tenants go
 * on. Problems in the files, the config or the command line are the whole run's and stop it.
 */
export function isTenantFailure(error: unknown): error is RoleflowError {
  return error instanceof RoleflowError && !(error instanceof InvalidFilesError) && error.code !== 'usage' && error.code !== 'config';
}

/** `error` naming its tenant, as every error of a run over several does: `tenant "production": cannot reach …`. */
export function tenantError(tenant: string, error: RoleflowError): RoleflowError {
  return new RoleflowError(`tenant ${quote(tenant)}: ${error.message}`, error.code, { cause: error });
}
