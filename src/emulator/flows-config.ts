import { createHash } from 'node:crypto';
import type { Issue, Result } from '../core/errors.js';
import { validateAgainst } from '../core/schema.js';
import { parseYaml, type YamlSource } from '../core/yaml-source.js';
import { flowsConfigSchema } from './flows-config.schema.js';

/** The flows file as written (see the header of `emulator-flows.yaml`). */
export interface FlowsConfig {
  flows: Record<string, FlowConfig>;
}

export interface FlowConfig {
  flow_id?: string;
  identity?: string;
  /** Inputs that must be present; a start without one is a 400. */
  inputs?: string[];
  steps: StepConfig[];
  /** A template: `${name}` in any string is that input; the string `${*}` is all inputs. */
  outputs: { results: unknown[] };
}

export interface StepConfig {
  service: string;
  latency?: string | number;
  fail?: boolean;
  fail_when?: Record<string, string>;
  fail_status?: string;
}

/** A flow ready to run: latencies in ms, cumulative end times, failure rules compiled. */
export interface CompiledFlow {
  name: string;
  flowId: string;
  identity: string;
  required: readonly string[];
  steps: readonly CompiledStep[];
  outputs: { results: unknown[] };
}

export interface CompiledStep {
  service: string;
  nodeId: string;
  latencyMs: number;
  /** Milliseconds from the start of the execution until this step stops. */
  endsAtMs: number;
  failStatus: string;
  fails(inputs: Readonly<Record<string, string>>): boolean;
}

const DEFAULT_IDENTITY = 'emulator';

/** Parse and validate a flows file; every problem is located in `file`. Pure: text in, result out. */
export function loadFlowsConfig(text: string, file: string): Result<FlowsConfig> {
  const parsed = parseYaml(text, { file });
  if (!parsed.ok) return parsed;
  return validateFlows(parsed.value, file);
}

/** Validate an already parsed flows object (positions are unknown, so issues point at 1:1). */
export function validateFlowsObject(value: unknown, label: string): Result<FlowsConfig> {
  return validateFlows({ value, locate: () => ({ line: 1, col: 1 }) }, label);
}

export function compileFlows(config: FlowsConfig): Map<string, CompiledFlow> {
  const compiled = new Map<string, CompiledFlow>();
  for (const [name, flow] of Object.entries(config.flows)) {
    let endsAtMs = 0;
    const steps = flow.steps.map((step, i): CompiledStep => {
      const latencyMs = parseLatency(step.latency ?? 0);
      endsAtMs += latencyMs;
      const rules = Object.entries(step.fail_when ?? {}).map(([input, re]) => [input, new RegExp(re)] as const);
      const always = step.fail === true;
      return {
        service: step.service,
        nodeId: `node-${i + 1}`,
        latencyMs,
        endsAtMs,
        failStatus: step.fail_status ?? 'failed',
        fails: (inputs) => always || rules.some(([input, re]) => re.test(inputs[input] ?? '')),
      };
    });
    compiled.set(name, {
      name,
      flowId: flow.flow_id ?? stableId(name),
      identity: flow.identity ?? DEFAULT_IDENTITY,
      required: flow.inputs ?? [],
      steps,
      outputs: flow.outputs,
    });
  }
  return compiled;
}

/** `"120ms"`, `"1.5s"` or a number of ms → whole milliseconds. The schema has checked the form. */
export function parseLatency(value: string | number): number {
  if (typeof value === 'number') return value;
  const ms = value.endsWith('ms') ? Number(value.slice(0, -2)) : Number(value.slice(0, -1)) * 1000;
  return Math.round(ms);
}

function validateFlows(source: YamlSource, file: string): Result<FlowsConfig> {
  const checked = validateAgainst<FlowsConfig>(flowsConfigSchema, source, file);
  if (!checked.ok) return checked;
  const issues: Issue[] = [];
  for (const [name, flow] of Object.entries(checked.value.flows)) {
    flow.steps.forEach((step, i) => {
      for (const [input, re] of Object.entries(step.fail_when ?? {})) {
        const problem = regexProblem(re);
        if (problem === undefined) continue;
        const pos = source.locate(`/flows/${escapePointer(name)}/steps/${i}/fail_when/${escapePointer(input)}`);
        issues.push({ file, ...pos, message: `flows.${name}.steps[${i}].fail_when.${input}: ${problem}` });
      }
    });
  }
  return issues.length > 0 ? { ok: false, issues } : checked;
}

function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (err) {
    return `not a valid regular expression (${err instanceof Error ? err.message : String(err)})`;
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

// A flow keeps the same id across restarts, as a deployed flow would, without being configured.
function stableId(name: string): string {
  const hex = createHash('sha256').update(`roleflow-emulator-flow:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
