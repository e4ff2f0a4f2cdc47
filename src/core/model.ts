/**
 * The domain as roleflow sees it, after the client has normalised the service's answers
 * (see PRODUCT.md, "Interface ambiguities"). Pure types: no I/O here.
 */

/** The three fields a Role file declares and the service stores. */
export interface RoleFields {
  name: string;
  description: string;
  content: string;
}

/** A Role as the tenant holds it. `lastUpdated` is read from `last_updated` or `last_update`. */
export interface Role extends RoleFields {
  id: string;
  createdAt?: string;
  lastUpdated?: string;
}

export interface FlowStart {
  flowId: string;
  executionId: string;
}

/** One execution-log entry, normalised: `count` as a number, latency as whole milliseconds. */
export interface ExecutionLogEntry {
  count: number;
  service: string;
  serviceType?: string;
  executionId?: string;
  identity?: string;
  stopExecution?: string;
  status: string;
  /** Duration in ms (`{seconds, milliseconds}` parts combined, see latency rule). */
  latencyMs: number;
  flowId?: string;
  /** Why a step failed, when the service says (the interface shows no such member; the emulator sends one). */
  error?: string;
}

/** A message the service sends on a WebSocket, decoded. */
export interface WsServerMessage {
  action: string;
  state: string;
  /** `statusCode` carried as a string by the service, as a number here (NaN if unparseable). */
  statusCode: number;
  serviceType?: string;
  service?: string;
  connectionId?: string;
  messageId?: string;
  nodeId?: string;
  /**
   * The `message` member as sent (a value that is not a string, as its JSON): human text for an
   * ack, the JSON of `{outputs}` for a completed message, read by `messagePayload` when needed.
   */
  messageText: string;
}

/** Where a tenant is and how to talk to it. The token is never part of anything printed. */
export interface TenantTarget {
  name: string;
  baseUrl: string;
  wsUrl?: string;
  /** `header` (Authorization: Bearer, default) or `query` (`?token=`). */
  wsAuth: 'header' | 'query';
  /** Pinned interface forms; unset means "probe, then remember". */
  api: ApiForms;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Retries after the first attempt, for retryable failures. */
  retries: number;
  /** The environment variable the token came from, named when the tenant refuses it. */
  tokenEnv?: string;
  /** How much is read from the tenant (default DEFAULT_LIMITS). */
  limits?: Limits;
}

export interface ApiForms {
  create?: '/admin/roles/create' | '/admin/role/create';
  update?: '/admin/roles/update' | '/admin/policies/update';
  delete?: 'post' | 'delete';
}

/** A live WebSocket conversation with the tenant. */
export interface WsSession {
  /** Send one client frame, JSON-encoded. */
  send(frame: Record<string, string>): void;
  /**
   * The next message. Resolves `undefined` when none came within `timeoutMs`, or at once when
   * `stop` is aborted; rejects with a RoleflowError when the connection drops.
   */
  next(timeoutMs: number, stop?: AbortSignal): Promise<WsServerMessage | undefined>;
  close(): void;
}

/** Every operation of the interface, as roleflow uses them. Implemented by `src/tenant/client.ts`. */
export interface TenantClient {
  readonly target: TenantTarget;
  listRoles(): Promise<Role[]>;
  /** `undefined` when absent, whichever way the tenant says so (404, [], 200 with an error). */
  getRole(id: string): Promise<Role | undefined>;
  /**
   * Create a Role, sending it once. When the outcome of the send is unknown, the tenant is
   * re-listed over a settle window and a new Role with this name and these fields counts as
   * created; if none appears, it rejects with an unknown outcome (src/tenant/create-once.ts), never
   * re-sending what the tenant may still carry out.
   */
  createRole(fields: RoleFields): Promise<{ id: string }>;
  updateRole(id: string, fields: RoleFields): Promise<void>;
  deleteRole(id: string): Promise<void>;
  startFlow(flowName: string, inputs: Record<string, string>): Promise<FlowStart>;
  execLogs(executionId: string): Promise<ExecutionLogEntry[]>;
  /** Open a WebSocket; a refused upgrade rejects with a RoleflowError naming status 403. */
  openWs(): Promise<WsSession>;
  close(): Promise<void>;
}

/**
 * How much roleflow reads from a tenant (`limits:` in the config): past a limit, what is being
 * read ends with an error naming it, so no answer, however large, can exhaust memory, and every
 * reporter handles whatever fits.
 */
export interface Limits {
  /** One HTTP answer's body; past it the answer is an error, never retried. */
  maxResponseBytes: number;
  /** One execution's WebSocket messages or logged steps; past it that execution is an error. */
  maxMessages: number;
  /** One execution's WebSocket frames (or its HTTPS log), in bytes; past it that execution is an error. */
  maxExecutionBytes: number;
}
