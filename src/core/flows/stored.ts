import { globToRegExp } from '../glob.js';
import { exactJson } from '../exact-json.js';
import { compileOnFirstCheck } from './checks/schema-check.js';
import { compileMatches } from './operators.js';
import type { Expectations, FlowTestFile } from './types.js';

/**
 * A loaded flow test file as JSON and back, for the cache of parsed files (files/parse-cache.ts):
 * the model without what loading compiles (the regular expressions of `matches` and of step
 * globs, the validators of inline schemas), which `reviveFlowTestFile` compiles again from what
 * the file wrote, with the functions loading uses.
 */

/**
 * The JSON of `file`, or `undefined` when JSON cannot carry it exactly: a value read back must be
 * the value loaded (no `undefined` member, `-0`, `NaN` or infinity, no object of another
 * prototype), or the file is simply parsed again next time.
 */
export function storedFlowTestFile(file: FlowTestFile): string | undefined {
  return exactJson(withoutCompiled(file));
}

/**
 * What `storedFlowTestFile` wrote, read back (`JSON.parse`d), compiled as loading compiles it
 * (an inline schema when an assertion first uses it); `undefined` if it is not that.
 */
export function reviveFlowTestFile(value: unknown): FlowTestFile | undefined {
  const file = value as FlowTestFile;
  if (typeof value !== 'object' || value === null || !Array.isArray(file.tests)) return undefined;
  for (const test of file.tests) {
    for (const a of test.expect.outputs) {
      if (a.operator === 'matches' && typeof a.expected === 'string') a.regex = compileMatches(a.expected);
      if (a.operator === 'schema' && typeof a.expected === 'object' && a.expected !== null) a.check = compileOnFirstCheck(a.expected);
    }
    for (const step of test.expect.latency?.steps ?? []) step.regex = globToRegExp(step.pattern);
  }
  return file;
}

function withoutCompiled(file: FlowTestFile): object {
  return { ...file, tests: file.tests.map((test) => ({ ...test, expect: plainExpectations(test.expect) })) };
}

function plainExpectations(expect: Expectations): object {
  const outputs = expect.outputs.map(({ regex: _regex, check: _check, ...a }) => a);
  if (!expect.latency) return { ...expect, outputs };
  return { ...expect, outputs, latency: { ...expect.latency, steps: expect.latency.steps.map(({ regex: _regex, ...s }) => s) } };
}
