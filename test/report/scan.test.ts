import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ReportScanner } from '../../src/report/combine/scan.js';

/** The scanner fed `text` in pieces cut at `cuts`: the head parsed, and each result parsed. */
function scan(text: string, cuts: number[] = []): { head: unknown; results: unknown[] } {
  const results: unknown[] = [];
  const scanner = new ReportScanner((t, i) => {
    expect(i).toBe(results.length);
    results.push(JSON.parse(t));
  });
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scanner.feed(text.slice(from, cut));
    from = cut;
  }
  scanner.feed(text.slice(from));
  return { head: JSON.parse(scanner.end().head), results };
}

describe('reading a report result by result', () => {
  it('splits any report into its head (results empty) and its results, however the text is cut', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.constantFrom('results', '"results": [', '\\', '"', '{[,]}'));
    const json = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.dictionary(fc.constantFrom('results', 'a', '"'), value)), { maxKeys: 5 });
    fc.assert(
      fc.property(fc.record({ before: json, results: fc.array(fc.oneof(json, value), { maxLength: 6 }), after: json }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), ({ before, results, after }, cuts, pretty) => {
        const { results: _b, ...head1 } = before as Record<string, unknown>;
        const { results: _a, ...head2 } = after as Record<string, unknown>;
        const report = { ...head1, results, ...Object.fromEntries(Object.entries(head2).filter(([k]) => !(k in head1))) };
        const text = JSON.stringify(report, null, pretty ? 2 : undefined);
        const read = scan(text, cuts.map((c) => c % (text.length + 1)));
        expect(read.results).toEqual(results);
        expect(read.head).toEqual({ ...report, results: [] });
      }),
      { numRuns: 300 },
    );
  });

  it('leaves text that is not JSON for JSON.parse to refuse', () => {
    const scanner = new ReportScanner(() => undefined);
    scanner.feed('{"results": [{"a": 1}');
    expect(() => JSON.parse(scanner.end().head)).toThrow();
  });
});
