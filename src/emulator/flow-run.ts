import { randomUUID } from 'node:crypto';
import type { CompiledFlow, CompiledStep } from './flows-config.js';
import { grade } from './grade.js';

export type Inputs = Readonly<Record<string, string>>;
export type LatencyForm = 'parts' | 'total';

/**
 * One run of a flow, simulated lazily: nothing ticks; which steps have finished is worked out from
 * the start time whenever someone asks, so an execution costs no timer.
 */
export interface Execution {
  id: string;
  flow: CompiledFlow;
  inputs: Inputs;
  startedAt: number;
  /** The steps that run: all of them, or up to and including the first failing one. */
  ran: readonly CompiledStep[];
  /** Whether the last step that ran failed. */
  failed: boolean;
  /** One id per step, logged as the entry's `execution_id` (the interface allows the step's own id). */
  stepIds: readonly string[];
}

export function startExecution(flow: CompiledFlow, inputs: Inputs, now = Date.now()): Execution {
  const failing = flow.steps.findIndex((s) => s.fails(inputs));
  const ran = failing === -1 ? flow.steps : flow.steps.slice(0, failing + 1);
  const stepIds = ran.map(() => randomUUID());
  return { id: randomUUID(), flow, inputs, startedAt: now, ran, failed: failing !== -1, stepIds };
}

export function stepStatus(execution: Execution, index: number): string {
  const last = index === execution.ran.length - 1;
  return last && execution.failed ? execution.ran[index]!.failStatus : 'completed';
}

export function finishedAt(execution: Execution): number {
  return execution.startedAt + (execution.ran.at(-1)?.endsAtMs ?? 0);
}

/** The exec_logs answer: one entry per step whose simulated stop time has passed. */
export function execLogEntries(execution: Execution, form: LatencyForm, now = Date.now()): object[] {
  const entries: object[] = [];
  execution.ran.forEach((step, i) => {
    if (execution.startedAt + step.endsAtMs > now) return;
    entries.push({
      count: String(i + 1),
      service: step.service,
      service_type: 'ai_services',
      execution_id: execution.stepIds[i],
      identity: execution.flow.identity,
      stop_execution: new Date(execution.startedAt + step.endsAtMs).toISOString(),
      status: stepStatus(execution, i),
      latency: latencyObject(step.latencyMs, form),
      flow_id: execution.flow.flowId,
    });
  });
  return entries;
}

/** `seconds` only from one second on, as the interface describes; `milliseconds` per the form. */
export function latencyObject(ms: number, form: LatencyForm): { seconds?: number; milliseconds: number } {
  if (ms < 1000) return { milliseconds: ms };
  return { seconds: Math.floor(ms / 1000), milliseconds: form === 'parts' ? ms % 1000 : ms };
}

/** The flow's outputs for these inputs: `${name}` → that input ('' if absent), `"${*}"` → all inputs. */
export function renderOutputs(flow: CompiledFlow, inputs: Inputs): { results: unknown[] } {
  // A grading flow's templates also see what `grade` made of the inputs (`${grade.pass}`…).
  const seen = flow.grade === undefined ? inputs : { ...inputs, ...grade(flow.grade, inputs) };
  return { results: flow.outputs.results.map((r) => render(r, seen)) };
}

function render(template: unknown, inputs: Inputs): unknown {
  if (typeof template === 'string') {
    if (template === '${*}') return { ...inputs };
    return template.replace(/\$\{([^}]*)\}/g, (_, name: string) => (Object.hasOwn(inputs, name) ? inputs[name]! : ''));
  }
  if (Array.isArray(template)) return template.map((t) => render(t, inputs));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, render(v, inputs)]));
  }
  return template;
}

/** The outputs a step's own node reports over the WebSocket (the last node reports the flow's). */
export function nodeOutputs(execution: Execution, index: number): { results: unknown[] } {
  const status = stepStatus(execution, index);
  if (index === execution.flow.steps.length - 1 && status === 'completed') {
    return renderOutputs(execution.flow, execution.inputs);
  }
  return { results: [{ service: execution.ran[index]!.service, execution_id: execution.stepIds[index], status }] };
}

const KEEP_FINISHED_MS = 10 * 60_000;
const MAX_EXECUTIONS = 10_000;

/** Executions kept for polling: bounded by count, and finished ones are dropped after a while. */
export class ExecutionStore {
  private readonly byId = new Map<string, Execution>();

  add(execution: Execution): void {
    this.byId.set(execution.id, execution);
    // Map order is insertion order, so the oldest executions are first.
    for (const [id, old] of this.byId) {
      const expired = finishedAt(old) + KEEP_FINISHED_MS < execution.startedAt;
      if (this.byId.size <= MAX_EXECUTIONS && !expired) break;
      this.byId.delete(id);
    }
  }

  get(id: string): Execution | undefined {
    return this.byId.get(id);
  }
}
