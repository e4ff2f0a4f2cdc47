import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatMs,
  compileGlob,
  latencyMs,
  matchesGlob,
  parseBudget,
  parseDuration,
  percentile,
  percentileOfSorted,
  withinBudget,
} from '../../../src/core/flows/index.js';

describe('latencyMs: the one reading of a step latency', () => {
  it('adds seconds and milliseconds when they are parts', () => {
    expect(latencyMs({ seconds: 1, milliseconds: 500 })).toBe(1500);
    expect(latencyMs({ seconds: 2, milliseconds: 0 })).toBe(2000);
  });

  it('takes milliseconds as the whole duration when they are 1000 or more', () => {
    expect(latencyMs({ seconds: 1, milliseconds: 1500 })).toBe(1500);
  });

  it('takes milliseconds alone as they are', () => {
    expect(latencyMs({ milliseconds: 80 })).toBe(80);
  });

  it('tolerates numbers carried as strings', () => {
    expect(latencyMs({ seconds: '1', milliseconds: '250' })).toBe(1250);
    expect(latencyMs({ milliseconds: ' 80 ' })).toBe(80);
  });

  it('reads seconds alone as whole seconds', () => {
    expect(latencyMs({ seconds: 3 })).toBe(3000);
  });

  it('is undefined for junk, never 0', () => {
    for (const junk of [undefined, null, 5, 'fast', {}, { milliseconds: 'soon' }, { milliseconds: -1 }, { seconds: 1, milliseconds: 'x' }]) {
      expect(latencyMs(junk)).toBeUndefined();
    }
  });
});

describe('durations and budgets', () => {
  it('parses the units a user writes', () => {
    expect(parseDuration('1.5s')).toEqual({ ok: true, value: 1500 });
    expect(parseDuration('800ms')).toEqual({ ok: true, value: 800 });
    expect(parseDuration('2m')).toEqual({ ok: true, value: 120_000 });
    expect(parseDuration('1h')).toEqual({ ok: true, value: 3_600_000 });
    expect(parseDuration('250')).toEqual({ ok: true, value: 250 });
    expect(parseDuration(250)).toEqual({ ok: true, value: 250 });
  });

  it('says what is wrong with junk', () => {
    expect(parseDuration('soon')).toEqual({
      ok: false,
      error: 'invalid duration "soon": use a number with ms, s, m or h, like 500ms, 1.5s or 2m',
    });
    expect(parseDuration('-1s').ok).toBe(false);
    expect(parseDuration('1.5 days').ok).toBe(false);
    expect(parseDuration(Number.NaN).ok).toBe(false);
  });

  it('parses "< 4s", "<4s" and "<= 800ms"', () => {
    expect(parseBudget('< 4s')).toEqual({ ok: true, value: { op: '<', ms: 4000, text: '< 4s' } });
    expect(parseBudget('<4s')).toEqual({ ok: true, value: { op: '<', ms: 4000, text: '< 4s' } });
    expect(parseBudget('<= 800ms')).toEqual({ ok: true, value: { op: '<=', ms: 800, text: '<= 800ms' } });
  });

  it('refuses a budget without a comparison or with a bad duration', () => {
    expect(parseBudget('4s')).toEqual({
      ok: false,
      error: 'invalid budget "4s": write a comparison and a duration, like "< 4s" or "<= 800ms"',
    });
    expect(parseBudget('> 4s').ok).toBe(false);
    expect(parseBudget('< quick')).toMatchObject({ ok: false, error: expect.stringContaining('invalid budget "< quick"') });
  });

  it('compares at the edge as written', () => {
    const lt = parseBudget('< 4s');
    const le = parseBudget('<= 4s');
    if (!lt.ok || !le.ok) throw new Error('budgets should parse');
    expect(withinBudget(4000, lt.value)).toBe(false);
    expect(withinBudget(4000, le.value)).toBe(true);
    expect(withinBudget(Number.NaN, le.value)).toBe(false);
  });

  it('formats milliseconds for people', () => {
    expect(formatMs(850)).toBe('850ms');
    expect(formatMs(1500)).toBe('1.5s');
    expect(formatMs(125_000)).toBe('2m 5s');
    expect(formatMs(Number.NaN)).toBe('unknown');
  });
});

describe('percentile (nearest rank)', () => {
  it('gives observed values that read naturally on small samples', () => {
    const three = [300, 100, 200];
    expect(percentile(three, 50)).toBe(200);
    expect(percentile(three, 95)).toBe(300);
    expect(percentile(three, 99)).toBe(300);
    expect(percentile([100, 200, 300, 400], 50)).toBe(200);
    expect(percentile([42], 95)).toBe(42);
  });

  it('follows the rank on larger samples', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
  });

  it('ignores unknown samples and has no value for none', () => {
    expect(percentile([Number.NaN, 10], 50)).toBe(10);
    expect(percentile([], 95)).toBeUndefined();
  });

  it('reads the same from samples already sorted (a report takes several percentiles of one sorted list)', () => {
    const samples = fc.array(fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: 0, max: 5000 })), { maxLength: 40 });
    const p = fc.oneof(fc.constantFrom(50, 95, 99, 100), fc.double({ min: Number.MIN_VALUE, max: 100, noNaN: true }));
    fc.assert(
      fc.property(samples, p, (values, q) => {
        const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
        expect(percentileOfSorted(sorted, q)).toBe(percentile(values, q));
      }),
    );
  });
});

describe('globs over names', () => {
  it('matches * and ? and nothing else specially', () => {
    expect(matchesGlob('llm-large', 'llm*')).toBe(true);
    expect(matchesGlob('my-llm', 'llm*')).toBe(false);
    expect(matchesGlob('node-3', 'node-?')).toBe(true);
    expect(matchesGlob('node-10', 'node-?')).toBe(false);
    expect(matchesGlob('a.b', 'a.b')).toBe(true);
    expect(matchesGlob('axb', 'a.b')).toBe(false);
    expect(matchesGlob('x(1)+[y]', 'x(1)+[y]')).toBe(true);
    expect(matchesGlob('team/admin-1', 'team/*')).toBe(true);
  });

  it('is anchored: a plain name is an exact match', () => {
    expect(compileGlob('retriever').test('retriever-2')).toBe(false);
    expect(compileGlob('retriever').test('retriever')).toBe(true);
  });
});
