/**
 * Drift, the pure parts: each Role classified from the files', the tenant's and the journal's
 * fingerprints (`classify.ts`), a tenant's result (`report.ts`), the console and the GitHub issue
 * (`render.ts`).
 */
export { ABSENT, classify, DRIFT_FOUND, DRIFT_STATUSES, driftExitCode, lastApplied, type DriftStatus } from './classify.js';
export { DRIFT_FORMAT_VERSION, isDriftError, tenantDrift, type DriftDocument, type DriftRole, type TenantDrift, type TenantDriftError } from './report.js';
export { driftIssue, driftLabel, driftMarker, renderDriftText, summaryLine, type DriftIssue } from './render.js';
export { driftRemedy } from './remedy.js';
