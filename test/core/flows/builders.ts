import { formatIssue } from '../../../src/core/errors.js';
import type { ExecutionLogEntry, WsServerMessage } from '../../../src/core/model.js';
import { parseFlowTestFile, type ExecutionResult, type FlowTest } from '../../../src/core/flows/index.js';
import { loadSchema } from '../../../src/files/package-root.js';

/** The first test of a flow test file written as YAML (the test is indented under `tests:`). */
export function flowTest(testYaml: string, header = 'flow: summarize\n'): FlowTest {
  const text = `${header}tests:\n${testYaml}`;
  const r = parseFlowTestFile(text, 'flows/t.yaml', loadSchema('flow-test'));
  if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
  return r.value.tests[0]!;
}

export function step(service: string, latencyMs = 100, status = 'completed'): ExecutionLogEntry {
  return { count: 1, service, status, latencyMs, serviceType: 'ai_services', identity: 'bot' };
}

export function wsMessage(state: 'ack' | 'completed', opts: { nodeId?: string; outputs?: unknown; statusCode?: number } = {}): WsServerMessage {
  const payload = state === 'completed' ? { outputs: opts.outputs ?? { results: [] } } : undefined;
  return {
    action: 'message',
    state,
    statusCode: opts.statusCode ?? 200,
    service: 'summarize',
    nodeId: opts.nodeId ?? '',
    messageText: payload ? JSON.stringify(payload) : 'received, processing',
  };
}

export function https(over: Partial<ExecutionResult> = {}): ExecutionResult {
  return { transport: 'https', status: 'ok', endedBy: 'until', steps: [], wallMs: 1000, ...over };
}

export function ws(over: Partial<ExecutionResult> = {}): ExecutionResult {
  return { transport: 'ws', status: 'ok', endedBy: 'until', messages: [], wallMs: 1000, ...over };
}
