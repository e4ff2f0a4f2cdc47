/**
 * Runs over several tenants and promotion between them (PRODUCT.md "Environments and promotion"),
 * the pure part: which tenants a run is over, and whether a test report lets a promotion through.
 */
export { selectTenants } from './select.js';
export { tenantsApplyLine, type TenantStep } from './apply-order.js';
export { pathCovers, reportGateReasons, type GateExpectation, type GateReport } from './promotion.js';
export { isTenantFailure, tenantError } from './tenant-errors.js';
