import { describe, expectTypeOf, it } from 'vitest';
import type { ApplyEnd, ApplyRun } from '../../src/core/apply/index.js';
import type { ErrorCode } from '../../src/core/errors.js';
import type { CreateChange, DeleteChange, PlanChange, UpdateChange } from '../../src/core/plan/index.js';

// Type-level contracts that code relies on without non-null assertions: checked by vitest's
// typecheck mode (tsc), so loosening one of these types fails the suite.
describe('PlanChange, narrowed by its action', () => {
  it('a create has its file and the state it makes, never an id or a before', () => {
    expectTypeOf<Extract<PlanChange, { action: 'create' }>>().toEqualTypeOf<CreateChange>();
    expectTypeOf<CreateChange['file']>().toEqualTypeOf<string>();
    expectTypeOf<CreateChange['after']>().not.toBeUndefined();
    expectTypeOf<CreateChange['id']>().toEqualTypeOf<undefined>();
  });

  it('an update has its id, file, both states and the fields it changes', () => {
    expectTypeOf<Extract<PlanChange, { action: 'update' }>>().toEqualTypeOf<UpdateChange>();
    expectTypeOf<UpdateChange['id']>().toEqualTypeOf<string>();
    expectTypeOf<UpdateChange['before']>().not.toBeUndefined();
    expectTypeOf<UpdateChange['fields']>().toEqualTypeOf<('name' | 'description' | 'content')[]>();
  });

  it('a delete has its id and what is deleted, never a file or an after', () => {
    expectTypeOf<Extract<PlanChange, { action: 'delete' }>>().toEqualTypeOf<DeleteChange>();
    expectTypeOf<DeleteChange['id']>().toEqualTypeOf<string>();
    expectTypeOf<DeleteChange['file']>().toEqualTypeOf<undefined>();
  });

  it('code handling every action reads id and file as possibly absent', () => {
    expectTypeOf<PlanChange['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PlanChange['file']>().toEqualTypeOf<string | undefined>();
  });
});

describe('errors and apply results', () => {
  it('an error code is one of the documented kinds, not any string', () => {
    expectTypeOf<'guard'>().toExtend<ErrorCode>();
    expectTypeOf<'timeout'>().not.toExtend<ErrorCode>();
  });

  it('how an apply ends is derived from its run alone', () => {
    expectTypeOf<ApplyEnd['status']>().toEqualTypeOf<'applied' | 'failed' | 'interrupted' | 'no_changes' | 'refused' | 'cancelled'>();
    expectTypeOf<ApplyRun['interrupted']>().toEqualTypeOf<boolean>();
  });
});
