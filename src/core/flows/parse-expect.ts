import { closest, schemaProblems } from '../text/schema.js';
import { DEFAULT_MIN_CHARS } from './checks/leaks.js';
import { compileUserSchema } from './checks/schema-check.js';
import { patternPointer } from './checks/schema-patterns.js';
import { compileGlob } from '../text/glob.js';
import { arr, int, ptr, rec, type LoadContext } from './load-context.js';
import { compileMatches } from './checks/operators.js';
import { parsePath } from './path.js';
import {
  OPERATORS,
  type BudgetKind,
  type Expectations,
  type LatencyBudget,
  type LatencyExpectation,
  type Located,
  type Operator,
  type OutputAssertion,
  type SimilarityMetric,
  type StepsExpectation,
} from './types.js';

/** Keys of an assertion besides its operator, and the operator they belong to (undefined: any). */
const MODIFIERS: Record<string, Operator | undefined> = {
  path: undefined,
  not: undefined,
  ignore: 'snapshot',
  min_chars: 'not_leaks',
  rubric: 'judge',
  reference: 'judge',
  min_score: 'judge',
  votes: 'judge',
};
/** The modifiers that belong to one operator, and it (once, not per assertion loaded). */
const OWNED_MODIFIERS = Object.entries(MODIFIERS).filter((e): e is [string, Operator] => e[1] !== undefined);
const IS_OPERATOR: ReadonlySet<string> = new Set(OPERATORS);
const BUDGET_KINDS: readonly BudgetKind[] = ['max', 'p50', 'p95', 'p99'];

/** `expect` of one test (at `pointer`), checked beyond the schema. */
export function loadExpect(value: unknown, pointer: string, ctx: LoadContext): Expectations {
  const e = rec(value);
  const outputs = arr(e['outputs'])
    .map((a, i) => loadAssertion(a, ptr(pointer, 'outputs', i), ctx))
    .filter((a): a is OutputAssertion => a !== undefined);
  // Member by member (once per test): a spread in a literal costs V8 a runtime call.
  const expectations: Expectations = { outputs };
  if (e['steps'] !== undefined) expectations.steps = loadSteps(e['steps'], ptr(pointer, 'steps'), ctx);
  if (e['latency'] !== undefined) expectations.latency = loadLatency(e['latency'], ptr(pointer, 'latency'), ctx);
  return expectations;
}

function loadAssertion(value: unknown, pointer: string, ctx: LoadContext): OutputAssertion | undefined {
  const a = rec(value);
  // Its keys but the modifiers, in order: the operators, and any unknown word (reported).
  let keys = 0;
  const known: Operator[] = [];
  for (const k of Object.keys(a)) {
    if (Object.hasOwn(MODIFIERS, k)) continue;
    keys += 1;
    if (IS_OPERATOR.has(k)) {
      known.push(k as Operator);
      continue;
    }
    const guess = closest(k, [...OPERATORS]);
    const hint = guess ? `did you mean "${guess}"?` : `one of: ${OPERATORS.join(', ')}`;
    ctx.report(pointer, `unknown assertion "${k}" (${hint})`, k);
  }
  if (a === value && keys === 0) {
    ctx.report(pointer, `assertion has no operator: add one of ${OPERATORS.join(', ')}`);
  }
  if (known.length > 1) {
    ctx.report(pointer, `one operator per assertion, got ${known.join(' and ')}: write one assertion for each`, known[1]);
  }
  const segments = typeof a['path'] === 'string' ? parsePath(a['path']) : undefined;
  if (segments && !segments.ok) ctx.report(ptr(pointer, 'path'), segments.error);
  const operator = known[0];
  if (!segments?.ok || operator === undefined) return undefined;

  // No spread before the members: each member after one costs V8 a runtime call.
  const { line, col } = ctx.at(pointer);
  const assertion: OutputAssertion = {
    line,
    col,
    path: a['path'] as string,
    segments: segments.value,
    operator,
    expected: a[operator],
    not: a['not'] === true,
  };
  if (operator === 'matches' && typeof a[operator] === 'string') {
    const compiled = compileMatches(a[operator]);
    if (compiled.ok) assertion.regex = compiled.regex;
    else ctx.report(ptr(pointer, operator), compiled.error);
  }
  if (operator === 'schema' && typeof a[operator] === 'object' && a[operator] !== null) {
    const compiled = compileUserSchema(a[operator]);
    if (compiled.ok) assertion.check = compiled.check;
    // Checked against the draft-07 meta-schema: each faulty key is reported at its value.
    else if (compiled.shape) for (const p of schemaProblems(compiled.shape, ptr(pointer, operator), { named: false })) ctx.report(p.pointer, p.message, p.key);
    else {
      const at = patternPointer(ptr(pointer, operator), compiled.at ?? []);
      ctx.report(at.pointer, compiled.error, at.key);
    }
  }
  for (const [key, owner] of OWNED_MODIFIERS) {
    if (a[key] !== undefined && owner !== operator) ctx.report(pointer, `"${key}" goes with ${owner} only`, key);
  }
  if ((operator === 'snapshot' || operator === 'not_leaks') && assertion.not) {
    ctx.report(pointer, `"not" cannot be used with ${operator}`, 'not');
  }
  if (operator === 'snapshot') assertion.ignore = arr(a['ignore']).map(String);
  loadTextAssertion(assertion, a, pointer, ctx);
  if (operator === 'not_leaks') assertion.minChars = int(a['min_chars']) ?? DEFAULT_MIN_CHARS;
  return assertion;
}

/** What `similar`, a tolerant `snapshot` and `judge` take besides their operand. */
function loadTextAssertion(assertion: OutputAssertion, a: Record<string, unknown>, pointer: string, ctx: LoadContext): void {
  const operand = rec(a[assertion.operator]);
  if (assertion.operator === 'similar') {
    const to = operand['to'];
    assertion.similar = { metric: metricOf(operand['metric']), gte: typeof operand['gte'] === 'number' ? operand['gte'] : 1 };
    if (typeof to === 'string') assertion.similar.to = to;
    else if (typeof rec(to)['file'] === 'string') assertion.similar.file = rec(to)['file'] as string;
  }
  if (assertion.operator === 'snapshot' && a['snapshot'] !== true) {
    const tolerance = rec(operand['tolerance']);
    assertion.tolerance = { metric: metricOf(tolerance['metric']), gte: typeof tolerance['gte'] === 'number' ? tolerance['gte'] : 1 };
  }
  if (assertion.operator === 'judge') {
    const votes = int(a['votes']) ?? 1;
    if (votes % 2 === 0) ctx.report(ptr(pointer, 'votes'), `votes ${votes} is even: make it odd, so a majority always decides`);
    if (typeof a['rubric'] !== 'string') ctx.report(pointer, 'judge needs a rubric: what the output must do, in words');
    assertion.judge = { name: String(a['judge']), rubric: typeof a['rubric'] === 'string' ? a['rubric'] : '', votes };
    if (typeof a['reference'] === 'string') assertion.judge.reference = a['reference'];
    if (typeof a['min_score'] === 'number') assertion.judge.minScore = a['min_score'];
    if (assertion.not) ctx.report(pointer, '"not" cannot be used with judge: write the rubric the other way round', 'not');
  }
}

function metricOf(value: unknown): SimilarityMetric {
  return value === 'token-f1' || value === 'levenshtein' ? value : 'rouge-l';
}

function loadSteps(value: unknown, pointer: string, ctx: LoadContext): StepsExpectation {
  const s = rec(value);
  const steps: StepsExpectation = {};
  const count = int(s['count']);
  if (count !== undefined) steps.count = located(count, ctx.at(ptr(pointer, 'count')));
  if (Array.isArray(s['sequence'])) steps.sequence = located(s['sequence'].map(String), ctx.at(ptr(pointer, 'sequence')));
  if (s['each'] !== undefined) {
    const each: Record<string, string> = {};
    const written = rec(s['each']);
    for (const k of Object.keys(written)) each[k] = String(written[k]);
    steps.each = located(each, ctx.at(ptr(pointer, 'each')));
  }
  return steps;
}

/** `{value, line, col}`, written out: `{ value, ...at }` costs V8 a runtime call, for every test loaded. */
function located<T>(value: T, at: Located): { value: T } & Located {
  return { value, line: at.line, col: at.col };
}

function loadLatency(value: unknown, pointer: string, ctx: LoadContext): LatencyExpectation {
  const l = rec(value);
  const total = l['total'] === undefined ? [] : loadBudgets(l['total'], ptr(pointer, 'total'), ctx);
  const steps = Object.entries(rec(l['steps'])).flatMap(([pattern, v]) =>
    loadBudgets(v, ptr(pointer, 'steps', pattern), ctx).map((b) => ({ ...b, pattern, regex: compileGlob(pattern) })),
  );
  return { total, steps };
}

/** `"< 4s"` (a `max` budget) or `{p95: "< 4s", ...}`. */
function loadBudgets(value: unknown, pointer: string, ctx: LoadContext): LatencyBudget[] {
  const entries: [BudgetKind, unknown, string][] =
    typeof value === 'string'
      ? [['max', value, pointer]]
      : BUDGET_KINDS.filter((k) => rec(value)[k] !== undefined).map((k) => [k, rec(value)[k], ptr(pointer, k)]);
  return entries.flatMap(([kind, text, at]) => {
    const budget = ctx.budget(text, at);
    return budget ? [{ kind, budget, ...ctx.at(at) }] : [];
  });
}
