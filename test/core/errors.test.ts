import { describe, expect, it } from 'vitest';
import { exitCodeOf, InvalidFilesError, RoleflowError, type ErrorCode } from '../../src/core/errors.js';
import { cleanError } from '../../src/core/redact-messages.js';
import type { ExecutionResult } from '../../src/core/flows/index.js';
import { tenantProblem } from '../../src/run/flows/flow-shared.js';

const CODES: ErrorCode[] = ['failed', 'usage', 'config', 'invalid_files', 'unreachable', 'unauthorized', 'no_answer', 'tenant_error', 'tenant_refused', 'outcome_unknown', 'guard'];

describe('error codes', () => {
  it('map to the exit codes of the README table in one place: a guard refuses (4), everything else is an error (1)', () => {
    expect(Object.fromEntries(CODES.map((c) => [c, exitCodeOf(c)]))).toEqual({
      failed: 1, usage: 1, config: 1, invalid_files: 1, unreachable: 1, unauthorized: 1, no_answer: 1, tenant_error: 1, tenant_refused: 1, outcome_unknown: 1, guard: 4,
    });
    expect(new RoleflowError('x').code).toBe('failed');
    expect(new RoleflowError('x', 'guard').exitCode).toBe(4);
    expect(new InvalidFilesError([{ file: 'a.md', line: 1, col: 1, message: 'm' }]).code).toBe('invalid_files');
  });

  it('survive the scrubbing of a secret from the message', () => {
    const clean = cleanError(new RoleflowError('GET /x: 401 token s3cr3t-value refused', 'unauthorized'), ['s3cr3t-value']);
    expect(clean.message).not.toContain('s3cr3t-value');
    expect(clean.code).toBe('unauthorized');
  });
});

describe('whether a failed execution stops the whole run', () => {
  const failed = (error: string, errorCode?: ErrorCode): ExecutionResult => ({
    transport: 'https',
    status: 'error',
    endedBy: 'error',
    error,
    ...(errorCode === undefined ? {} : { errorCode }),
    wallMs: 1,
  });

  it('is decided by the error code, whatever the message says', () => {
    expect(tenantProblem(failed('flow "f" over HTTPS: anything at all', 'unauthorized'))).toBe('anything at all');
    expect(tenantProblem(failed('flow "f" over WebSocket: reworded', 'unreachable'))).toBe('reworded');
    // Text that reads like a refusal, from a flow's own failure, stops nothing.
    expect(tenantProblem(failed('flow "f" over HTTPS: GET /admin/stats: 401 cannot reach', 'tenant_error'))).toBeUndefined();
    expect(tenantProblem(failed('flow "f" over HTTPS: cannot reach https://x: ECONNREFUSED'))).toBeUndefined();
    expect(tenantProblem({ ...failed('x', 'unreachable'), status: 'failed' })).toBeUndefined();
  });
});
