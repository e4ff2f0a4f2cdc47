import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../../src/core/model.js';
import { roleStateHash, roleStateText } from '../../../src/core/plan/hash.js';

// What a saved plan's remote_hash has always hashed: a plan saved by an earlier roleflow must
// still be checked against the same text, so the quicker way of making it must never differ.
const arrayText = (role: Role): string => JSON.stringify(['role', role.id, role.name, role.description, role.content]);

describe('roleStateText', () => {
  it('is the array serialiser’s text for any strings: quotes, backslashes, controls, lone surrogates, U+2028', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udfff', 'é', '😀'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 });
    fc.assert(
      fc.property(text, text, text, fc.string({ unit: 'binary', maxLength: 200 }), (id, name, description, content) => {
        const role = { id, name, description, content };
        expect(roleStateText(role)).toBe(arrayText(role));
      }),
      { numRuns: 3000 },
    );
  });

  it('falls back to the array serialiser for a field that is not a string (a server answer roleflow did not expect)', () => {
    const odd = { id: 'r1', name: 'a', description: undefined, content: 7 } as unknown as Role;
    expect(roleStateText(odd)).toBe('["role","r1","a",null,7]');
  });

  it('hashes as it always did (a plan saved before keeps its meaning)', () => {
    const role = { id: 'r-1', name: 'support', description: 'Tier 1', content: 'You are "kind".\n' };
    expect(roleStateHash(role)).toBe('sha256:e50876e573500747286160882fe48dc88d1090588fb4457820a5883962ceb8f9');
  });
});
