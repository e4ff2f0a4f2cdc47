import { describe, expect, it } from 'vitest';
import { expandInputs } from '../../../src/core/flows/index.js';

describe('expandInputs', () => {
  it('replaces ${env:NAME} anywhere in a value and keeps other text', () => {
    const out = expandInputs(
      { text: 'Order ${env:ORDER} for ${env:WHO}!', lang: 'en', literal: 'cost $${x} $5' },
      { ORDER: '42', WHO: 'ann' },
      [],
    );
    expect(out).toEqual({
      values: { text: 'Order 42 for ann!', lang: 'en', literal: 'cost ${x} $5' },
      secrets: [],
      missing: [],
    });
  });

  it('lists variables that are not set, once each; an empty value is a value', () => {
    const out = expandInputs({ a: '${env:NOPE}', b: '${env:NOPE}-${env:EMPTY}' }, { EMPTY: '' }, []);
    expect(out.missing).toEqual(['NOPE']);
    expect(out.values['b']).toBe('-');
  });

  it('returns the values of the declared secrets that are set', () => {
    const out = expandInputs({ key: '${env:API_KEY}' }, { API_KEY: 's3cr3t', OTHER: 'x', BLANK: '' }, [
      'API_KEY',
      'UNSET',
      'BLANK',
    ]);
    expect(out.secrets).toEqual(['s3cr3t']);
    expect(out.values['key']).toBe('s3cr3t');
  });

  it('does not read inherited properties as variables', () => {
    expect(expandInputs({ a: '${env:toString}' }, {}, []).missing).toEqual(['toString']);
  });
});
