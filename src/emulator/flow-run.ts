import { randomUUID } from 'node:crypto';
import type { CompiledFlow, CompiledStep } from './flows-config.js';
import { missingRoleText, readRoleTemplate, TEMPLATE, type RoleLookup, type RoleText } from './store/role-refs.js';

export type Inputs = Readonly<Record<string, string>>;
export type LatencyForm = 'parts' | 'total';

/**
 * One run of a flow, simulated lazily: nothing ticks; which steps have finished is worked out from
 * the start time whenever someone asks, so an execution costs no timer. Everything else is decided
 * when it starts: the Roles it runs with are read from the tenant then, so which step fails and
 * what the outputs say never depend on when someone asks.
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
  /** Why the last step failed, when it did: its service failed, or it needs a Role the tenant lacks. */
  error?: string;
  /** The Roles the flow names that the tenant held when the execution started, by name. */
  roles: ReadonlyMap<string, RoleText>;
  /** One id per step, logged as the entry's `execution_id` (the interface allows the step's own id). */
  stepIds: readonly string[];
}

/**
 * Start `flow`: the Roles it names are read from the tenant (`lookup`) now, once. A step fails when
 * its `role` is not among them, the last step when a Role its outputs name is not (before its own
 * `fail`/`fail_when` rules); the first failing step is the last that runs.
 */
export function startExecution(flow: CompiledFlow, inputs: Inputs, lookup: RoleLookup, now = Date.now()): Execution {
  const roles = new Map<string, RoleText>();
  for (const name of flow.roles) {
    const role = lookup(name);
    if (role !== undefined) roles.set(name, role);
  }
  const last = flow.steps.length - 1;
  const why = (step: CompiledStep, i: number): string | undefined => {
    if (step.role !== undefined && !roles.has(step.role)) return missingRoleText(step.role, `step "${step.service}"`);
    const forOutputs = i === last ? flow.outputRoles.find((name) => !roles.has(name)) : undefined;
    if (forOutputs !== undefined) return missingRoleText(forOutputs, `the outputs of flow "${flow.name}"`);
    return step.fails(inputs) ? `${step.service} failed` : undefined;
  };
  let error: string | undefined;
  const failing = flow.steps.findIndex((step, i) => (error = why(step, i)) !== undefined);
  const ran = failing === -1 ? flow.steps : flow.steps.slice(0, failing + 1);
  const stepIds = ran.map(() => randomUUID());
  const execution: Execution = { id: randomUUID(), flow, inputs, startedAt: now, ran, failed: failing !== -1, stepIds, roles };
  if (error !== undefined) execution.error = error;
  return execution;
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
    const status = stepStatus(execution, i);
    entries.push({
      count: String(i + 1),
      service: step.service,
      service_type: 'ai_services',
      execution_id: execution.stepIds[i],
      identity: execution.flow.identity,
      stop_execution: new Date(execution.startedAt + step.endsAtMs).toISOString(),
      status,
      latency: latencyObject(step.latencyMs, form),
      flow_id: execution.flow.flowId,
      // The interface shows no error member; a failed step says why in one, as the WebSocket does.
      ...(status === 'completed' ? {} : { error: execution.error }),
    });
  });
  return entries;
}

/** `seconds` only from one second on, as the interface describes; `milliseconds` per the form. */
export function latencyObject(ms: number, form: LatencyForm): { seconds?: number; milliseconds: number } {
  if (ms < 1000) return { milliseconds: ms };
  return { seconds: Math.floor(ms / 1000), milliseconds: form === 'parts' ? ms % 1000 : ms };
}

/**
 * The execution's outputs: `${role.NAME.content|description}` → that Role's field as the execution
 * read it, `${name}` → that input ('' if absent), `"${*}"` → all inputs.
 */
export function renderOutputs(execution: Execution): { results: unknown[] } {
  return { results: execution.flow.outputs.results.map((r) => render(r, execution.inputs, execution.roles)) };
}

function render(template: unknown, inputs: Inputs, roles: ReadonlyMap<string, RoleText>): unknown {
  if (typeof template === 'string') {
    if (template === '${*}') return { ...inputs };
    return template.replace(TEMPLATE, (_, inner: string) => {
      const role = readRoleTemplate(inner);
      // The flows file was checked on load, and outputs are made only when every Role was found.
      if (role !== undefined) return 'name' in role ? (roles.get(role.name)?.[role.field] ?? '') : '';
      return Object.hasOwn(inputs, inner) ? inputs[inner]! : '';
    });
  }
  if (Array.isArray(template)) return template.map((t) => render(t, inputs, roles));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, render(v, inputs, roles)]));
  }
  return template;
}

/** The outputs a step's own node reports over the WebSocket (the last node reports the flow's). */
export function nodeOutputs(execution: Execution, index: number): { results: unknown[] } {
  const status = stepStatus(execution, index);
  if (index === execution.flow.steps.length - 1 && status === 'completed') {
    return renderOutputs(execution);
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
