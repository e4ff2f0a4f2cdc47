import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commentMarker, markerLine } from '../../action/src/sticky-comment.js';

describe('sticky comment markers', () => {
  it('tell apart the plan of staging + production and the plan of the tenant staging_production', () => {
    expect(commentMarker('plan', { names: ['staging', 'production'] })).toBe('roleflow:plan:staging,production');
    expect(commentMarker('plan', { names: ['staging_production'] })).toBe('roleflow:plan:staging_production');
    expect(commentMarker('plan', { names: ['staging+production'] })).toBe('roleflow:plan:staging%2Bproduction');
    expect(commentMarker('apply', { names: [], all: true })).toBe('roleflow:apply:all;');
    expect(commentMarker('apply', { names: ['all;'] })).toBe('roleflow:apply:all%3B');
  });

  it('are one-to-one for any command, set of tenant names and --all-tenants, and never end the HTML comment', () => {
    const selection = fc.record({ command: fc.constantFrom('plan', 'apply', 'test', 'preview'), names: fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }), all: fc.boolean() });
    fc.assert(
      fc.property(selection, selection, (a, b) => {
        const same = a.command === b.command && a.all === b.all && JSON.stringify(a.names) === JSON.stringify(b.names);
        expect(commentMarker(a.command, a) === commentMarker(b.command, b)).toBe(same);
        expect(markerLine(commentMarker(a.command, a))).toMatch(/^<!-- [^>\s]* -->$/);
      }),
      { numRuns: 2000 },
    );
  });
});
