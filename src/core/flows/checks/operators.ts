import { isDeepStrictEqual } from 'node:util';
import { excerpt } from './leaks.js';
import { similarity } from './similarity.js';
import { compareSnapshot, withoutIgnored } from './snapshot.js';
import type { Comparison, LeakFinder, OutputAssertion, SnapshotBaseline } from '../types.js';
import { valueAt } from '../path.js';
import { compileUserRegex, type CompiledRegex } from '../../text/linear-regex.js';

export interface OutputVerdict {
  pass: boolean;
  expected: string;
  actual: string;
  message: string;
  /** A snapshot that differs: the unified diff. */
  diff?: string;
}

/** What `snapshot` and `not_leaks` compare with, resolved by the caller (`evaluateTest`). */
export interface OutputWith {
  /** `snapshot`: the value to equal; undefined: no snapshot is stored (`ci` says whether that fails). */
  snapshot?: SnapshotBaseline;
  ci?: boolean;
  /** `not_leaks`: the index of the Roles named. */
  leaks?: LeakFinder;
  /** `snapshot`: secrets masked in the received value (`AssertionContext.mask`). */
  mask?: (value: unknown) => unknown;
}

/**
 * Check one output assertion. A missing path fails every operator but `exists`, with or without
 * `not`: "not contains" over nothing would hide a broken output. A value of the wrong type
 * (contains on a number) also fails either way, saying why.
 */
export function checkOutput(a: OutputAssertion, outputs: unknown, using: OutputWith = {}): OutputVerdict {
  const { found, value } = valueAt(outputs, a.segments);
  if (found && a.operator === 'snapshot') return checkSnapshot(a, value, using);
  if (found && a.operator === 'not_leaks') return checkLeaks(a, value, using.leaks!);
  if (found && a.operator === 'similar') return checkSimilar(a, value);
  const expected = `${a.not ? 'not ' : ''}${describe(a)}`;
  const actual = found ? show(value) : 'nothing (path not found)';
  // A string verdict: the operator cannot apply to this value, so the assertion fails either way.
  let verdict: boolean | string;
  let detail = '';
  if (a.operator === 'exists') verdict = found === a.expected;
  else if (!found) verdict = 'path not found';
  else if (a.operator === 'schema') {
    const problems = a.check!(value, a.path);
    verdict = problems.length === 0;
    detail = problems.join('; ');
  } else verdict = apply(a, value);
  if (typeof verdict === 'string' && found) detail = verdict;
  const pass = typeof verdict === 'boolean' && verdict !== a.not;
  // A schema's own words name the failing value and keyword: `results[0].label: must be one of …`.
  const message = pass
    ? `${a.path}: ${expected}`
    : a.operator === 'schema' && !a.not && detail !== ''
      ? detail
      : `${a.path}: expected ${expected}, got ${actual}${detail ? ` (${detail})` : ''}`;
  // A schema's problems are what came, for reports that show expected and actual side by side.
  return { pass, expected, actual: a.operator === 'schema' && !pass && detail !== '' ? `${actual}: ${detail}` : actual, message };
}

/** Every repeat is compared with the baseline; with none stored, it is written unless `ci`. */
function checkSnapshot(a: OutputAssertion, found: unknown, using: OutputWith): OutputVerdict {
  const kept = withoutIgnored(found, a.ignore ?? []);
  const value = using.mask ? using.mask(kept) : kept;
  const actual = show(value);
  const base = using.snapshot;
  if (base === undefined || (base.source === 'new' && using.ci)) {
    const why = using.ci
      ? 'no snapshot is stored and CI is set: run `roleflow test -u` and commit __snapshots__/'
      : 'no snapshot is stored';
    return { pass: !using.ci, expected: 'the stored snapshot', actual, message: `${a.path}: ${why}` };
  }
  const compared = compareSnapshot(base.value, value);
  const tolerated = compared.pass || a.tolerance === undefined ? undefined : similarity(a.tolerance.metric, textOf(base.value), textOf(value));
  if (!compared.pass && tolerated !== undefined && tolerated >= a.tolerance!.gte) {
    const score = `${a.tolerance!.metric} ${round(tolerated)} >= ${a.tolerance!.gte}`;
    return { pass: true, expected: show(base.value), actual, message: `${a.path}: differs from its snapshot within its tolerance (${score})`, diff: compared.diff };
  }
  if (compared.pass) {
    const how = base.source === 'new' ? 'snapshot written' : base.source === 'update' ? 'snapshot updated' : 'matches its snapshot';
    return { pass: true, expected: 'the stored snapshot', actual, message: `${a.path}: ${how}` };
  }
  const against = base.source === 'file' ? 'its snapshot' : 'the first repeat (written as its snapshot)';
  const hint = base.source === 'file' ? ' (`roleflow test -u` accepts the new value)' : '';
  const beyond = tolerated === undefined ? '' : ` beyond its tolerance (${a.tolerance!.metric} ${round(tolerated)} < ${a.tolerance!.gte})`;
  return { pass: false, expected: show(base.value), actual, message: `${a.path}: differs from ${against}${beyond}${hint}`, diff: compared.diff };
}

/** `similar`: a string at least `gte` similar to the text, by the metric (`not`: less similar). */
function checkSimilar(a: OutputAssertion, value: unknown): OutputVerdict {
  const { to = '', metric, gte } = a.similar!;
  const expected = `${a.not ? 'not ' : ''}similar to ${show(to)} (${metric} >= ${gte})`;
  if (typeof value !== 'string') return { pass: false, expected, actual: show(value), message: `${a.path}: expected ${expected}, got ${show(value)} (similar applies to a string)` };
  const score = similarity(metric, value, to);
  const pass = score >= gte !== a.not;
  const actual = `${metric} ${round(score)}: ${show(value)}`;
  return { pass, expected, actual, message: pass ? `${a.path}: ${metric} ${round(score)} ${a.not ? '<' : '>='} ${gte}` : `${a.path}: expected ${expected}, got ${actual}` };
}

/** A value as the text similarity compares: a string as it is, anything else as JSON. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

/** Every string in the value (keys aside) is searched on its own: a leak is a run within one text. */
function checkLeaks(a: OutputAssertion, value: unknown, index: LeakFinder): OutputVerdict {
  const expected = `no run of ${index.minChars}+ characters of ${a.expected === '*' ? 'any Role' : `Role ${String(a.expected)}`}`;
  for (const text of stringsIn(value)) {
    const leak = index.find(text);
    if (leak) {
      const actual = `${leak.text.length} characters of Role ${leak.role} (${leak.file}:${leak.line}): ${JSON.stringify(excerpt(leak.text.trim()))}`;
      return { pass: false, expected, actual, message: `${a.path}: leaks ${actual}` };
    }
  }
  return { pass: true, expected, actual: 'no leak', message: `${a.path}: ${expected}` };
}

function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* stringsIn(v);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) yield* stringsIn(v);
}

/** A value for a message: JSON, cut at 200 characters. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The matching regex for a `matches` operand: `/re/flags`, or the whole string as the pattern. */
export function compileMatches(source: string): CompiledRegex {
  const m = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
  return m ? compileUserRegex(m[1]!, m[2]!) : compileUserRegex(source);
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
      return typeof e === 'string' ? `to match the schema ${e}` : 'to match the schema';
    case 'snapshot':
      return 'to match its snapshot';
    case 'not_leaks':
      return `not to leak ${e === '*' ? 'any Role' : `Role ${String(e)}`}`;
    case 'similar':
      return `to be similar to ${show(a.similar?.to)}`;
    case 'judge':
      return `to pass judge ${String(e)}: ${show(a.judge?.rubric)}`;
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
