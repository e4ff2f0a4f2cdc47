import type { ApiForms, ExecutionLogEntry, FlowStart, Role, RoleFields, TenantClient, TenantTarget, WsSession } from '../core/model.js';
import { FormChooser, routeVerdict } from './api-forms.js';
import { jsonBody, statusError, tokenSource, type TokenSource } from './http-errors.js';
import type { ClientOptions, HttpResponse } from './exchange.js';
import { HttpTransport, IDEMPOTENT, NOT_IDEMPOTENT, START_FLOW } from './http.js';
import { toExecLogs, toFlowStart, toRoleById, toRoles } from './decode.js';
import { cleanError } from '../core/redact-messages.js';
import { createRoleOnce, type KnownIds } from './create-once.js';

export type { ClientOptions } from './exchange.js';

/** The tenant's whole interface over undici (HTTPS) and ws (WebSocket). */
export function createClient(options: ClientOptions): TenantClient {
  return new HttpTenantClient(options);
}

const GET_ROLES = '/admin/roles/get';
let wsOpenModule: Promise<typeof import('./ws-open.js')> | undefined;
const DELETE_PATH = '/admin/policies/delete';

class HttpTenantClient implements TenantClient {
  readonly target: TenantTarget;
  private readonly http: HttpTransport;
  private readonly forms: { [K in keyof ApiForms]-?: FormChooser<NonNullable<ApiForms[K]>> };
  private readonly known = new KnownRoleIds();
  private readonly sessions = new Set<WsSession>();

  constructor(private readonly options: ClientOptions) {
    this.target = options.target;
    this.http = new HttpTransport(options);
    const api = options.target.api;
    this.forms = {
      create: new FormChooser(['/admin/roles/create', '/admin/role/create'], api.create),
      update: new FormChooser(['/admin/roles/update', '/admin/policies/update'], api.update),
      delete: new FormChooser(['post', 'delete'], api.delete),
    };
  }

  listRoles(): Promise<Role[]> {
    return this.guard(async () => {
      const answer = this.ok(await this.http.send({ method: 'GET', path: GET_ROLES }, IDEMPOTENT));
      const roles = toRoles(jsonBody(answer), `GET ${GET_ROLES}`);
      this.known.relisted(roles);
      return roles;
    });
  }

  getRole(id: string): Promise<Role | undefined> {
    return this.guard(async () => {
      const answer = await this.http.send({ method: 'GET', path: GET_ROLES, query: { id } }, IDEMPOTENT);
      if (answer.status === 404) return undefined;
      const role = toRoleById(jsonBody(this.ok(answer)), id, `GET ${GET_ROLES}?id=`);
      if (role) this.known.add(role);
      return role;
    });
  }

  createRole(fields: RoleFields): Promise<{ id: string }> {
    return this.guard(async () => {
      const body = { name: fields.name, description: fields.description, content: fields.content };
      const id = await createRoleOnce({
        fields,
        known: this.known,
        timeoutMs: this.target.timeoutMs,
        sleep: this.options.sleep,
        send: () =>
          this.forms.create.run(
            (path) => this.http.send({ method: 'POST', path, body }, NOT_IDEMPOTENT),
            (answer) => routeVerdict(answer),
          ),
        relist: () => this.listRoles(),
        failure: (answer) => statusError(answer, this.auth),
        notice: this.options.onRetry,
      });
      this.known.add({ id, name: fields.name });
      return { id };
    });
  }

  updateRole(id: string, fields: RoleFields): Promise<void> {
    return this.guard(async () => {
      const body = { id, name: fields.name, description: fields.description, content: fields.content };
      const answer = await this.forms.update.run(
        (path) => this.http.send({ method: 'POST', path, body }, IDEMPOTENT),
        (a) => routeVerdict(a, id),
      );
      this.ok(answer);
    });
  }

  deleteRole(id: string): Promise<void> {
    return this.guard(async () => {
      const answer = await this.forms.delete.run(
        (form) =>
          this.http.send(
            form === 'post' ? { method: 'POST', path: DELETE_PATH, body: { id } } : { method: 'DELETE', path: DELETE_PATH, query: { id } },
            IDEMPOTENT,
          ),
        (a) => routeVerdict(a, id),
      );
      // After an attempt whose outcome was lost, "not found" means that attempt deleted it.
      if (answer.status === 404 && answer.afterUnknown) return;
      this.ok(answer);
    });
  }

  startFlow(flowName: string, inputs: Record<string, string>): Promise<FlowStart> {
    return this.guard(async () => {
      const path = `/flow/${encodeURIComponent(flowName)}`;
      const answer = this.ok(await this.http.send({ method: 'POST', path, body: inputs }, START_FLOW));
      return toFlowStart(jsonBody(answer), `POST ${path}`);
    });
  }

  execLogs(executionId: string): Promise<ExecutionLogEntry[]> {
    return this.guard(async () => {
      const path = '/admin/stats';
      const body = { execution_id: executionId, opCode: 'exec_logs' };
      const answer = this.ok(await this.http.send({ method: 'POST', path, body, executionLog: true }, IDEMPOTENT));
      return toExecLogs(jsonBody(answer), `POST ${path}`);
    });
  }

  openWs(): Promise<WsSession> {
    return this.guard(async () => {
      // Loaded when first needed: `plan` and `apply` never open a WebSocket, and ws costs ~20 ms to load.
      // Imported once: an import() of a loaded module still goes through the module loader, per session.
      const { openWsSession } = await (wsOpenModule ??= import('./ws-open.js'));
      const session = await openWsSession(this.target, this.options.token, this.options.onRequest, this.options.proxy);
      this.sessions.add(session);
      const close = session.close.bind(session);
      session.close = () => {
        this.sessions.delete(session);
        close();
      };
      return session;
    });
  }

  async close(): Promise<void> {
    for (const session of [...this.sessions]) session.close();
    await this.http.close();
  }

  private ok(answer: HttpResponse): HttpResponse {
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw statusError(answer, this.auth);
  }

  /** What a refused-token error names: the tenant, where it is, and where the token came from. */
  private get auth(): TokenSource | undefined {
    return tokenSource(this.target, this.options.token);
  }

  /** Whatever goes wrong, the caller gets one RoleflowError line with the token scrubbed out. */
  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw cleanError(error, this.http.secrets);
    }
  }
}

/**
 * The ids seen per Role name (`KnownIds`). A listing is indexed when a create first reads
 * `byName`, not as it arrives: a plan lists 100,000 Roles and never creates, and a Set per name
 * costs time and memory for nothing.
 */
class KnownRoleIds implements KnownIds {
  listed = false;
  private readonly index = new Map<string, Set<string>>();
  private unindexed: readonly Pick<Role, 'id' | 'name'>[] = [];

  get byName(): Map<string, Set<string>> {
    this.indexListing();
    return this.index;
  }

  /** A new listing replaces all that was known; its own copy of the list, as the caller may change the array. */
  relisted(roles: readonly Role[]): void {
    this.listed = true;
    this.index.clear();
    this.unindexed = roles.slice();
  }

  /** A Role read by id or just created: after the listing's, as if it had been indexed first. */
  add(role: Pick<Role, 'id' | 'name'>): void {
    this.indexListing();
    this.put(role);
  }

  private indexListing(): void {
    const roles = this.unindexed;
    this.unindexed = [];
    for (const role of roles) this.put(role);
  }

  private put(role: Pick<Role, 'id' | 'name'>): void {
    const ids = this.index.get(role.name) ?? new Set<string>();
    ids.add(role.id);
    this.index.set(role.name, ids);
  }
}
