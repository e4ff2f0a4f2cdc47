import { execLogEntries, startExecution, type ExecutionStore, type Inputs, type LatencyForm } from './flow-run.js';
import type { CompiledFlow } from './flows-config.js';
import { json, message, MISSING_PARAMETERS, stringFields, type Route } from './http-kit.js';
import type { RoleLookup } from './store/role-refs.js';

export const FLOW_PATH = '/flow/{flowName}';

/** Flow start and execution-log polling over HTTPS; `roles`: the tenant's, read when an execution starts. */
export function flowRoutes(flows: () => ReadonlyMap<string, CompiledFlow>, roles: RoleLookup, executions: ExecutionStore, form: LatencyForm): Route[] {
  return [
    {
      method: 'POST',
      path: FLOW_PATH,
      body: true,
      mutates: false,
      handle: (req) => {
        const flow = flows().get(req.param);
        if (!flow) return message(404, `flow not found: ${req.param}`);
        const checked = checkInputs(flow, req.body ?? {});
        if ('problem' in checked) return message(400, checked.problem);
        const execution = startExecution(flow, checked.inputs, roles);
        executions.add(execution);
        return json(200, { flowId: flow.flowId, executionId: execution.id });
      },
    },
    {
      method: 'POST',
      path: '/admin/stats',
      body: true,
      mutates: false,
      handle: (req) => {
        const fields = stringFields(req.body, ['execution_id', 'opCode']);
        if (!fields) return message(400, MISSING_PARAMETERS);
        if (fields.opCode !== 'exec_logs') return message(400, `unsupported opCode: ${fields.opCode}`);
        const execution = executions.get(fields.execution_id);
        if (!execution) return message(404, 'execution not found');
        return json(200, execLogEntries(execution, form));
      },
    },
  ];
}

/**
 * Inputs are a JSON object of strings (the HTTP body, or the WebSocket frame's other members);
 * anything else is a problem naming the input. Shared by both transports.
 */
export function checkInputs(flow: CompiledFlow, value: unknown): { inputs: Inputs } | { problem: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: 'flow inputs must be a JSON object of strings' };
  }
  const entries = Object.entries(value);
  const wrong = entries.find(([, v]) => typeof v !== 'string');
  if (wrong) return { problem: `input "${wrong[0]}" must be a string` };
  // fromEntries defines own properties, so even an input named "__proto__" is kept as data.
  const inputs = Object.fromEntries(entries) as Record<string, string>;
  const missing = flow.required.filter((name) => !Object.hasOwn(inputs, name));
  if (missing.length > 0) return { problem: `${MISSING_PARAMETERS}: ${missing.join(', ')}` };
  return { inputs };
}
