import { isDeepStrictEqual } from 'node:util';
import type { Comparison, OutputAssertion } from './types.js';
import { valueAt } from './path.js';

export interface OutputVerdict {
  pass: boolean;
  expected: string;
  actual: string;
  message: string;
}

/**
 * Check one output assertion. A missing path fails every operator but `exists`, with or without
 * `not`: "not contains" over nothing would hide a broken output. A value of the wrong type
 * (contains on a number) also fails either way, saying why.
 */
export function checkOutput(a: OutputAssertion, outputs: unknown): OutputVerdict {
  const { found, value } = valueAt(outputs, a.segments);
  const expected = `${a.not ? 'not ' : ''}${describe(a)}`;
  const actual = found ? show(value) : 'nothing (path not found)';
  // A string verdict: the operator cannot apply to this value, so the assertion fails either way.
  let verdict: boolean | string;
  let detail = '';
  if (a.operator === 'exists') verdict = found === a.expected;
  else if (!found) verdict = 'path not found';
  else if (a.operator === 'schema') {
    const problems = a.check!(value);
    verdict = problems.length === 0;
    detail = problems.join('; ');
  } else verdict = apply(a, value);
  if (typeof verdict === 'string' && found) detail = verdict;
  const pass = typeof verdict === 'boolean' && verdict !== a.not;
  const message = pass
    ? `${a.path}: ${expected}`
    : `${a.path}: expected ${expected}, got ${actual}${detail ? ` (${detail})` : ''}`;
  return { pass, expected, actual, message };
}

/** A value for a message: JSON, cut at 200 characters. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The matching regex for a `matches` operand: `/re/flags`, or the whole string as the pattern. */
export function compileMatches(source: string): RegExp {
  const m = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
  return m ? new RegExp(m[1]!, m[2]!.replace('g', '').replace('y', '')) : new RegExp(source);
}

export function describeComparison(c: Comparison): string {
  const sign = { equals: '==', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
  return (Object.keys(sign) as (keyof Comparison)[])
    .filter((k) => c[k] !== undefined)
    .map((k) => `${sign[k]} ${c[k]}`)
    .join(' and ');
}

function describe(a: OutputAssertion): string {
  const e = a.expected;
  switch (a.operator) {
    case 'equals':
      return `to equal ${show(e)}`;
    case 'contains':
      return `to contain ${show(e)}`;
    case 'icontains':
      return `to contain ${show(e)} (ignoring case)`;
    case 'matches':
      return `to match ${String(a.regex)}`;
    case 'exists':
      return e === true ? 'to exist' : 'to be absent';
    case 'length':
      return `length ${typeof e === 'number' ? `== ${e}` : describeComparison(e as Comparison)}`;
    case 'schema':
      return 'to match the schema';
    default:
      return describeComparison({ [a.operator]: e as number });
  }
}

// true/false is the verdict; a string says why the operator cannot apply to this value.
function apply(a: OutputAssertion, value: unknown): boolean | string {
  const e = a.expected;
  switch (a.operator) {
    case 'equals':
      return isDeepStrictEqual(value, e);
    case 'contains':
      if (typeof value === 'string') return typeof e === 'string' ? value.includes(e) : `${show(e)} is not text`;
      if (Array.isArray(value)) return value.some((item) => isDeepStrictEqual(item, e));
      return 'contains applies to a string or an array';
    case 'icontains': {
      const needle = String(e).toLowerCase();
      if (typeof value === 'string') return value.toLowerCase().includes(needle);
      if (Array.isArray(value)) return value.some((item) => typeof item === 'string' && item.toLowerCase() === needle);
      return 'icontains applies to a string or an array';
    }
    case 'matches':
      return typeof value === 'string' ? a.regex!.test(value) : 'matches applies to a string';
    case 'length': {
      if (typeof value !== 'string' && !Array.isArray(value)) return 'length applies to a string or an array';
      const c: Comparison = typeof e === 'number' ? { equals: e } : (e as Comparison);
      return compare(value.length, c);
    }
    default: {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? compare(n, { [a.operator]: e as number }) : `${a.operator} applies to a number`;
    }
  }
}

function compare(n: number, c: Comparison): boolean {
  return (
    (c.equals === undefined || n === c.equals) &&
    (c.gt === undefined || n > c.gt) &&
    (c.gte === undefined || n >= c.gte) &&
    (c.lt === undefined || n < c.lt) &&
    (c.lte === undefined || n <= c.lte)
  );
}
