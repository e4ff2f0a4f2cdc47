import { maxOf } from '../text/lists.js';
import { indentationMistake } from './yaml/indentation.js';
import type { Issue, Result } from '../errors.js';
import { validateAgainst } from '../text/schema.js';
import { parseYaml } from '../text/yaml-source.js';
import { parseEnvRefs } from './env.js';
import { arr, int, LoadContext, ptr, rec } from './load-context.js';
import { loadExpect } from './parse-expect.js';
import { readSimpleYaml } from './yaml/simple-yaml.js';
import type { FlowTest, FlowTestFile, Transport, UntilRule } from './types.js';

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_QUIET_MS = 3_000;

const POSITIVE = { positive: true };

/** Members of the WebSocket frame itself: an input with one of these names would overwrite it. */
const WS_FRAME_KEYS = ['action', 'service'];

/** A setting written in the test or inherited from `defaults`, with where it was written. */
interface Setting {
  value: unknown;
  pointer: string;
}

/** The id a test has in reports and for `--shard`. Pass `file` relative to the run's root, with `/`. */
export function flowTestId(file: string, name: string): string {
  return `${file} > ${name}`;
}

/**
 * Load one flow test file: YAML, the schema (passed in by the caller, who reads
 * `schemas/flow-test.schema.json`), then what a schema cannot say — durations, budgets, regexes,
 * embedded schemas, `${env:}` syntax, `min_pass` ≤ `repeat`, one operator per assertion, unique
 * test names. Every problem is an issue at the line and column of the offending value.
 */
export function parseFlowTestFile(text: string, file: string, schema: object): Result<FlowTestFile> {
  // The everyday shape without the YAML parser, which stays the authority on anything else.
  const simple = readSimpleYaml(text);
  const yaml = simple ? { ok: true as const, value: simple } : parseYaml(text, { file });
  if (!yaml.ok) return { ok: false, issues: explainYamlIssues(yaml.issues, text) };
  const ctx = new LoadContext(file, yaml.value);
  const checked = validateAgainst<unknown>(schema, yaml.value, file);
  const model = loadFile(yaml.value.value, file, ctx);
  const issues = mergeIssues(checked.ok ? [] : checked.issues, ctx.issues);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: model };
}

function loadFile(value: unknown, file: string, ctx: LoadContext): FlowTestFile {
  const root = rec(value);
  const flow = typeof root['flow'] === 'string' ? root['flow'] : '';
  const transports = loadTransports(root['transport']);
  const fileTags = loadTags(root['tags']);
  const defaults = rec(root['defaults']);
  const inherited = (key: string): Setting | undefined =>
    defaults[key] === undefined ? undefined : { value: defaults[key], pointer: ptr('/defaults', key) };
  const base = {
    repeat: inherited('repeat'),
    minPass: inherited('min_pass'),
    timeoutMs: ctx.duration(defaults['timeout'], '/defaults/timeout', { positive: true }),
    until: loadUntil(defaults['until'], '/defaults/until', ctx),
  };
  // What a test without an `until` of its own has (a copy each: one spread of a whole object).
  const inheritedUntil = { quietMs: DEFAULT_QUIET_MS, ...base.until };
  const tests = arr(root['tests']).map((t, i): FlowTest => {
    const pointer = ptr('/tests', i);
    const test = rec(t);
    const own = (key: string): Setting | undefined =>
      test[key] === undefined ? undefined : { value: test[key], pointer: ptr(pointer, key) };
    const name = typeof test['name'] === 'string' ? test['name'] : '';
    const testTransports = loadTransports(test['transport']) ?? transports;
    const repeat = int((own('repeat') ?? base.repeat)?.value) ?? 1;
    const minPassSetting = own('min_pass') ?? base.minPass;
    const minPass = int(minPassSetting?.value) ?? repeat;
    if (minPassSetting && minPass > repeat) {
      ctx.report(minPassSetting.pointer, `min_pass ${minPass} is more than repeat ${repeat}`);
    }
    const skip = test['skip'] === true ? 'skipped' : typeof test['skip'] === 'string' ? test['skip'] || 'skipped' : undefined;
    // Built member by member, in this order: a literal with members after a spread costs V8 a
    // runtime call per member (~1 µs each), and this runs for every test of every file.
    const { line, col } = ctx.at(pointer);
    const loaded = {
      line,
      col,
      id: flowTestId(file, name),
      file,
      flow,
      name,
      inputs: loadInputs(test['inputs'], ptr(pointer, 'inputs'), testTransports, ctx),
      repeat,
      minPass,
      // (Pointers are made only for what the test writes: most inherit these.)
      timeoutMs: (test['timeout'] === undefined ? undefined : ctx.duration(test['timeout'], ptr(pointer, 'timeout'), POSITIVE)) ?? base.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      until: test['until'] === undefined ? { ...inheritedUntil } : { ...inheritedUntil, ...loadUntil(test['until'], ptr(pointer, 'until'), ctx) },
    } as FlowTest;
    if (testTransports) loaded.transports = testTransports;
    if (skip !== undefined) loaded.skip = skip;
    const testTags = loadTags(test['tags']);
    const tags = fileTags === undefined && testTags === undefined ? [] : [...new Set([...(fileTags ?? []), ...(testTags ?? [])])];
    if (tags.length > 0) loaded.tags = tags;
    loaded.expect = loadExpect(test['expect'], ptr(pointer, 'expect'), ctx);
    return loaded;
  });
  reportDuplicateNames(tests, ctx);
  const loadedFile: FlowTestFile = { file, flow, secrets: arr(root['secrets']).map(String), tests };
  if (fileTags !== undefined) loadedFile.tags = fileTags;
  return loadedFile;
}

function loadInputs(value: unknown, pointer: string, transports: Transport[] | undefined, ctx: LoadContext) {
  const inputs: Record<string, string> = {};
  for (const [key, v] of Object.entries(rec(value))) {
    if (typeof v !== 'string') continue;
    const refs = parseEnvRefs(v);
    if (!refs.ok) ctx.report(ptr(pointer, key), refs.error);
    if (WS_FRAME_KEYS.includes(key) && (transports === undefined || transports.includes('ws'))) {
      ctx.report(pointer, `input "${key}" cannot be sent over WebSocket: the frame's own "${key}" member has that name`, key);
    }
    inputs[key] = v;
  }
  return inputs;
}

/** Only the keys written: a test's `until` replaces the file's defaults key by key. */
function loadUntil(value: unknown, pointer: string, ctx: LoadContext): Partial<UntilRule> {
  const u = rec(value);
  const steps = int(u['steps']);
  const messages = int(u['messages']);
  const quietMs = ctx.duration(u['quiet'], ptr(pointer, 'quiet'));
  // Member by member, for every test loaded: a literal of conditional spreads costs a runtime call each.
  const until: Partial<UntilRule> = {};
  if (steps !== undefined) until.steps = steps;
  if (typeof u['node'] === 'string') until.node = u['node'];
  if (messages !== undefined) until.messages = messages;
  if (quietMs !== undefined) until.quietMs = quietMs;
  return until;
}

/** `tags: [smoke, refunds]` (the schema checks each one). */
function loadTags(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : undefined;
}

function loadTransports(value: unknown): Transport[] | undefined {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  return list?.filter((t): t is Transport => t === 'https' || t === 'ws');
}

function reportDuplicateNames(tests: FlowTest[], ctx: LoadContext): void {
  const seen = new Map<string, FlowTest>();
  tests.forEach((t, i) => {
    const first = seen.get(t.name);
    if (first && t.name !== '') {
      ctx.report(ptr('/tests', i, 'name'), `duplicate test name "${t.name}" (also on line ${first.line})`);
    } else seen.set(t.name, t);
  });
}

// The schema's generic "unknown key" / "must match pattern" at a spot where the loader said
// something more precise (unknown assertion, bad budget) would only repeat it less clearly.
// A default checked once per test (min_pass) is still one problem.
function mergeIssues(schemaIssues: Issue[], loadIssues: Issue[]): Issue[] {
  const precise = new Set(loadIssues.map((i) => `${i.line}:${i.col}`));
  const named = namedPaths(schemaIssues);
  const kept = schemaIssues.filter(
    (i) => !(precise.has(`${i.line}:${i.col}`) && /unknown key|must match pattern/.test(i.message)) && !otherShape(i, named),
  );
  // An inline schema is checked against its meta-schema by the loader: the same rule for its shapes.
  const loadNamed = namedPaths(loadIssues);
  const loaded = loadIssues.filter((i) => !otherShape(i, loadNamed));
  const unique = new Map([...kept, ...loaded].map((i) => [`${i.line}:${i.col}:${i.message}`, i]));
  return [...unique.values()].sort((a, b) => a.line - b.line || a.col - b.col);
}

const SHAPE = /^(.*?): must be \w+, got \w+$/;

// A value that may take several shapes (an inline schema or a schema file; a type name or a list
// of them) fails the shapes it does not have with "must be string, got object"; when another
// problem names the same value, or a part of it, that one says what to fix.
function otherShape(issue: Issue, named: ReadonlySet<string>): boolean {
  const m = SHAPE.exec(issue.message);
  return m !== null && named.has(m[1]!);
}

/**
 * Every path the problems other than shape ones name, or name a part of: each start of such a
 * message up to a `:`, `.` or `[`. One pass, so a file with 20,000 problems is not compared pairwise.
 */
function namedPaths(issues: readonly Issue[]): Set<string> {
  const named = new Set<string>();
  for (const { message } of issues) {
    if (SHAPE.test(message)) continue;
    for (let k = 0; k < message.length; k++) {
      const c = message[k];
      if (c === ':' || c === '.' || c === '[') named.add(message.slice(0, k));
    }
  }
  return named;
}

// `{ path: results[0].summary }` (as a user would write it) is not YAML: inside { } a plain value
// cannot hold [ ]. After a syntax error the parser reports a cascade down to the end of the file;
// the first error, with the fix, is what helps.
/**
 * The YAML library's problem, one line, made plain: a misindented line is named where it is, in
 * words (the library often complains at a line before or after it, in its own terms); a flow
 * collection holding brackets says how to quote them.
 */
/** The YAML library's words for what a misindented line makes of a document. */
const INDENTATION_ERRORS = /must start at the same column|without - indicator|implicit map key|Implicit keys need|compact mappings|Tabs are not allowed|indent/i;

function explainYamlIssues(issues: Issue[], text: string): Issue[] {
  const first = issues[0];
  const mistake = first !== undefined && issues.some((i) => INDENTATION_ERRORS.test(i.message)) ? indentationMistake(text) : undefined;
  // Where the library stopped bounds where the mistake can be: it reads no further than the line after.
  if (mistake !== undefined && mistake.line <= maxOf(issues.map((i) => i.line)) + 1) {
    return [{ file: first!.file, line: mistake.line, col: mistake.col, message: mistake.message }];
  }
  return issues.slice(0, 1).map((i) =>
    /flow-seq-start|flow-map-start/.test(i.message)
      ? { ...i, message: `${i.message} (inside { }, quote a value holding [ ] or { }: path: "results[0].summary", or write results.0.summary)` }
      : i,
  );
}
