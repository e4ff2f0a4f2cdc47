import { RoleflowError } from '../core/errors.js';
import { latencyMs } from '../core/flows/latency.js';
import type { ExecutionLogEntry, FlowStart, Role, WsServerMessage } from '../core/model.js';

/**
 * The service's JSON turned into src/core/model.ts types, tolerating every plausible form the
 * interface leaves open. `where` names the endpoint in the error when a shape is wrong.
 */

export function toRoles(body: unknown, where: string): Role[] {
  if (!Array.isArray(body)) throw shapeError(where, `expected a JSON array of roles, got ${kindOf(body)}`);
  return body.map((item, index) => toRole(item, where, index));
}

/**
 * The answer to `GET ?id=`: one Role object or an array holding it; `undefined` for every form of
 * "absent" the interface allows (`[]`, or 200 with an error object such as `{message}`). A tenant
 * that ignores `?id` and answers the whole list is read by picking the id out of it.
 */
export function toRoleById(body: unknown, id: string, where: string): Role | undefined {
  if (Array.isArray(body)) return toRoles(body, where).find((role) => role.id === id);
  if (isObject(body) && body.id === undefined) return undefined;
  const role = toRole(body, where, 'the role');
  return role.id === id ? role : undefined;
}

/**
 * `label` says which role in the error (`the role`); a number is its index in a list, shown as
 * `role #N` (made only for an error: a list can hold 100,000 Roles).
 */
export function toRole(item: unknown, where: string, label: string | number): Role {
  if (!isObject(item)) throw shapeError(where, `${labelText(label)} is ${kindOf(item)}, not an object`);
  const { id, name, description, content } = item;
  if (typeof id !== 'string' || id === '') throw shapeError(where, `${labelText(label)} has no string id`);
  if (typeof name !== 'string') throw shapeError(where, `role ${id} has no string name`);
  const role: Role = { id, name, description: textOf(description, 'description', id, where), content: textOf(content, 'content', id, where) };
  if (typeof item.created_at === 'string') role.createdAt = item.created_at;
  const updated = item.last_updated ?? item.last_update;
  if (typeof updated === 'string') role.lastUpdated = updated;
  return role;
}

function labelText(label: string | number): string {
  return typeof label === 'number' ? `role #${label + 1}` : label;
}

/** The id a create answered with (`{message, id}`). */
export function toCreatedId(body: unknown, where: string): string {
  if (isObject(body) && typeof body.id === 'string' && body.id !== '') return body.id;
  throw shapeError(where, 'the answer carries no string id for the new role');
}

export function toFlowStart(body: unknown, where: string): FlowStart {
  if (isObject(body) && typeof body.flowId === 'string' && typeof body.executionId === 'string') {
    return { flowId: body.flowId, executionId: body.executionId };
  }
  throw shapeError(where, 'expected {flowId, executionId} strings');
}

/**
 * Execution-log entries: `count` as a number (the entry's position when it is not numeric),
 * latency through the one latency rule; an unknown latency is NaN, which no bound accepts,
 * rather than a 0 that every bound would.
 */
export function toExecLogs(body: unknown, where: string): ExecutionLogEntry[] {
  if (!Array.isArray(body)) throw shapeError(where, `expected a JSON array of log entries, got ${kindOf(body)}`);
  return body.map((item, index) => {
    if (!isObject(item)) throw shapeError(where, `log entry #${index + 1} is ${kindOf(item)}, not an object`);
    const count = Number(item.count);
    const entry: ExecutionLogEntry = {
      count: typeof item.count !== 'boolean' && item.count !== '' && Number.isFinite(count) ? count : index + 1,
      service: stringOr(item.service, ''),
      status: stringOr(item.status, ''),
      latencyMs: latencyMs(item.latency) ?? Number.NaN,
    };
    return copyStrings(item, entry, LOG_ENTRY_STRINGS);
  });
}

/** A WebSocket frame from the service, decoded; `undefined` when the frame is not a JSON object. */
export function toWsMessage(frame: string): WsServerMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(frame);
  } catch {
    return undefined;
  }
  if (!isObject(raw)) return undefined;
  const text = typeof raw.message === 'string' ? raw.message : raw.message === undefined ? '' : JSON.stringify(raw.message);
  // The JSON inside `message` is read only for the message whose outputs are wanted
  // (`messagePayload`), and `inputsValues` (the inputs echoed back) not at all: nothing reads them.
  const message: WsServerMessage = {
    action: stringOr(raw.action, ''),
    state: stringOr(raw.state, ''),
    statusCode: typeof raw.statusCode === 'string' && raw.statusCode.trim() !== '' ? Number(raw.statusCode) : typeof raw.statusCode === 'number' ? raw.statusCode : Number.NaN,
    messageText: text,
  };
  return copyStrings(raw, message, WS_MESSAGE_STRINGS);
}

/** The optional string members of a log entry and of a WebSocket message, and their model names (made once, not per entry or message). */
const LOG_ENTRY_STRINGS: Record<string, keyof ExecutionLogEntry & string> = {
  service_type: 'serviceType',
  execution_id: 'executionId',
  identity: 'identity',
  stop_execution: 'stopExecution',
  flow_id: 'flowId',
  error: 'error',
};
const WS_MESSAGE_STRINGS: Record<string, keyof WsServerMessage & string> = {
  service_type: 'serviceType',
  service: 'service',
  connectionId: 'connectionId',
  messageId: 'messageId',
  nodeId: 'nodeId',
};

function textOf(value: unknown, field: string, id: string, where: string): string {
  // A tenant leaving an empty description out (or null) means "", not a broken role.
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw shapeError(where, `role ${id} has ${kindOf(value)} as ${field}, not a string`);
  return value;
}

/** `to` with the optional string members of `from` copied under their model names. */
function copyStrings<T extends object>(from: Record<string, unknown>, to: T, names: Record<string, keyof T & string>): T {
  // A loop over the keys, not Object.entries: this runs for every message and log entry.
  for (const key in names) {
    const value = from[key];
    if (typeof value === 'string') (to as Record<string, unknown>)[names[key]!] = value;
  }
  return to;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function shapeError(where: string, problem: string): RoleflowError {
  return new RoleflowError(`${where}: ${problem}`);
}
