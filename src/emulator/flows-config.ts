import { createHash } from 'node:crypto';
import type { Issue, Result } from '../core/errors.js';
import { compileUserRegex, type UserRegex } from '../core/text/linear-regex.js';
import { pointerToPath, validateAgainst } from '../core/text/schema.js';
import { parseYaml, type YamlSource } from '../core/text/yaml-source.js';
import { flowsConfigSchema } from './flows-config.schema.js';
import type { GradeConfig } from './grade.js';
import { roleTemplatesIn, stringsIn } from './store/role-refs.js';

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
  /**
   * A template: `${name}` in any string is that input, `${role.NAME.content}` and
   * `${role.NAME.description}` that Role's field; the string `${*}` is all inputs.
   */
  outputs: { results: unknown[] };
  /** A deterministic judge: `${grade.pass}`, `${grade.score}`, `${grade.reason}` in the outputs (`grade.ts`). */
  grade?: GradeConfig;
}

export interface StepConfig {
  service: string;
  latency?: string | number;
  fail?: boolean;
  fail_when?: Record<string, string>;
  fail_status?: string;
  /** A Role of the tenant this step runs with: without it, the step fails. */
  role?: string;
}

/** A flow ready to run: latencies in ms, cumulative end times, failure rules compiled. */
export interface CompiledFlow {
  name: string;
  flowId: string;
  identity: string;
  required: readonly string[];
  steps: readonly CompiledStep[];
  outputs: { results: unknown[] };
  grade?: GradeConfig;
  /** The Roles the outputs name (`${role.NAME.…}`): the last step needs them. */
  outputRoles: readonly string[];
  /** Every Role the flow names, steps' and outputs': read from the tenant when an execution starts. */
  roles: readonly string[];
}

export interface CompiledStep {
  service: string;
  nodeId: string;
  latencyMs: number;
  /** Milliseconds from the start of the execution until this step stops. */
  endsAtMs: number;
  failStatus: string;
  /** The step's `role`. */
  role?: string;
  fails(inputs: Readonly<Record<string, string>>): boolean;
}

const DEFAULT_IDENTITY = 'emulator';

/** Parse and validate a flows file; every problem is located in `file`. Pure: text in, result out. */
export function loadFlowsConfig(text: string, file: string): Result<FlowsConfig> {
  const loaded = loadFlowsSource(text, file);
  return loaded.ok ? { ok: true, value: loaded.value.config } : loaded;
}

/** `loadFlowsConfig`, with the parsed YAML to locate things in. */
export function loadFlowsSource(text: string, file: string): Result<{ config: FlowsConfig; source: YamlSource }> {
  const parsed = parseYaml(text, { file });
  if (!parsed.ok) return parsed;
  const checked = validateFlows(parsed.value, file);
  return checked.ok ? { ok: true, value: { config: checked.value, source: parsed.value } } : checked;
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
      const latencyMs = parseLatency(step.latency ?? 0) ?? 0;
      endsAtMs += latencyMs;
      const rules = Object.entries(step.fail_when ?? {}).map(([input, re]) => [input, validatedRegex(re)] as const);
      const always = step.fail === true;
      return {
        service: step.service,
        nodeId: `node-${i + 1}`,
        latencyMs,
        endsAtMs,
        failStatus: step.fail_status ?? 'failed',
        ...(step.role === undefined ? {} : { role: step.role }),
        fails: (inputs) => always || rules.some(([input, re]) => re.test(Object.hasOwn(inputs, input) ? inputs[input]! : '')),
      };
    });
    const outputRoles = outputRoleNames(flow.outputs);
    compiled.set(name, {
      name,
      flowId: flow.flow_id ?? stableId(name),
      identity: flow.identity ?? DEFAULT_IDENTITY,
      required: flow.inputs ?? [],
      steps,
      outputs: flow.outputs,
      outputRoles,
      roles: [...new Set([...steps.flatMap((s) => (s.role === undefined ? [] : [s.role])), ...outputRoles])],
      ...(flow.grade === undefined ? {} : { grade: flow.grade }),
    });
  }
  return compiled;
}

// Timers cannot wait longer than ~24.8 days; an emulated step has no business near that.
const MAX_LATENCY_MS = 3_600_000;
const LATENCY = /^([0-9]+(?:\.[0-9]+)?)(ms|s)$/;

/** `"120ms"`, `"1.5s"` or a number of ms → whole milliseconds; undefined for any other text. */
export function parseLatency(value: string | number): number | undefined {
  if (typeof value === 'number') return value;
  const match = LATENCY.exec(value);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * (match[2] === 's' ? 1000 : 1));
}

/** The Roles an outputs template names, each once, in the order written (the template is valid). */
function outputRoleNames(outputs: unknown): string[] {
  const names = stringsIn(outputs).flatMap(({ text }) => roleTemplatesIn(text).flatMap((t) => ('name' in t ? [t.name] : [])));
  return [...new Set(names)];
}

function validateFlows(source: YamlSource, file: string): Result<FlowsConfig> {
  const checked = validateAgainst<FlowsConfig>(flowsConfigSchema, source, file);
  const issues = [...(checked.ok ? [] : checked.issues), ...valueIssues(source, file)];
  if (issues.length === 0) return checked;
  return { ok: false, issues: issues.sort((a, b) => a.line - b.line || a.col - b.col) };
}

// What JSON Schema cannot say well: durations and regular expressions. The value may not have
// passed the schema, so every level is checked for its shape before it is read.
function valueIssues(source: YamlSource, file: string): Issue[] {
  const issues: Issue[] = [];
  const flows = asRecord(asRecord(source.value)?.['flows']) ?? {};
  for (const [name, flow] of Object.entries(flows)) {
    // A `${role.…}` that is not `${role.NAME.content}` or `${role.NAME.description}`, where it is written.
    for (const { text, at } of stringsIn(asRecord(flow)?.['outputs'])) {
      for (const template of roleTemplatesIn(text)) {
        if (!('problem' in template)) continue;
        const pointer = pointerOf(['flows', name, 'outputs', ...at]);
        issues.push({ file, ...source.locate(pointer), message: `${pointerToPath(pointer)}: ${template.problem}` });
      }
    }
    const steps = asRecord(flow)?.['steps'];
    if (!Array.isArray(steps)) continue;
    steps.forEach((raw: unknown, i) => {
      const step = asRecord(raw) ?? {};
      const at = (keys: string[], problem: string): void => {
        const pointer = pointerOf(['flows', name, 'steps', String(i), ...keys]);
        issues.push({ file, ...source.locate(pointer), message: `${pointerToPath(pointer)}: ${problem}` });
      };
      const latency = step['latency'];
      if (typeof latency === 'string' && parseLatency(latency) === undefined) {
        at(['latency'], `${JSON.stringify(latency)} is not a duration like 120ms or 1.5s`);
      } else if ((typeof latency === 'string' || typeof latency === 'number') && parseLatency(latency)! > MAX_LATENCY_MS) {
        at(['latency'], 'must be at most 1h');
      }
      for (const [input, re] of Object.entries(asRecord(step['fail_when']) ?? {})) {
        const problem = typeof re === 'string' ? regexProblem(re) : undefined;
        if (problem !== undefined) at(['fail_when', input], problem);
      }
    });
  }
  return issues;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A `fail_when` pattern, which validation (regexProblem) let through. */
function validatedRegex(source: string): UserRegex {
  const compiled = compileUserRegex(source);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regex;
}

function regexProblem(source: string): string | undefined {
  const compiled = compileUserRegex(source);
  return compiled.ok ? undefined : `not a valid regular expression: ${compiled.error}`;
}

/** The JSON pointer of these keys (`YamlSource.locate` takes one). */
export function pointerOf(keys: readonly string[]): string {
  return ['', ...keys].map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

// A flow keeps the same id across restarts, as a deployed flow would, without being configured.
function stableId(name: string): string {
  const hex = createHash('sha256').update(`roleflow-emulator-flow:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
