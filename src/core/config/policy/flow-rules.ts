import type { FlowTestFile } from '../../flows/index.js';
import type { YamlSource } from '../../text/yaml-source.js';
import type { Finding, FlowPolicy, FlowRule, Level } from './types.js';

/**
 * The flow rules of `policy.flows` over one loaded flow test file: `require_assertions` (a test
 * that asserts nothing passes whatever the flow does) at the test, `max_repeat` at the `repeat`
 * that sets it (the test's own, else the file's `defaults`). `source` is the file's parsed YAML,
 * to find where `repeat` is written.
 */
export function lintFlowFile(file: FlowTestFile, policy: FlowPolicy, source?: YamlSource): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: FlowRule, at: { line: number; col: number }, message: string): void => {
    findings.push({ rule, level: levelOf(policy, rule), file: file.file, line: at.line, column: at.col, message });
  };
  const raw = source?.value as { tests?: { repeat?: unknown }[] } | undefined;
  file.tests.forEach((test, i) => {
    const { outputs, steps, latency } = test.expect;
    const asserts = outputs.length > 0 || (steps !== undefined && Object.keys(steps).length > 0) || (latency !== undefined && latency.total.length + latency.steps.length > 0);
    if (policy.requireAssertions && !asserts) {
      add('require_assertions', test, `test ${JSON.stringify(test.name)} has no assertion: it passes whatever the flow answers (policy.flows.require_assertions)`);
    }
    if (policy.maxRepeat !== undefined && test.repeat > policy.maxRepeat) {
      const own = raw?.tests?.[i]?.repeat !== undefined;
      const at = source ? source.locate(own ? `/tests/${i}/repeat` : '/defaults/repeat') : test;
      add('max_repeat', at, `test ${JSON.stringify(test.name)} repeats ${test.repeat} times, more than max_repeat ${policy.maxRepeat} (policy.flows.max_repeat)`);
    }
  });
  return findings;
}

function levelOf(policy: FlowPolicy, rule: FlowRule): Level {
  return policy.levels[rule] ?? policy.level;
}
