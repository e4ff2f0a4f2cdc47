import { RoleflowError } from '../core/errors.js';
import { quote } from '../core/roles/index.js';
import type { Role, RoleFields } from '../core/model.js';
import { jsonBody } from './http-errors.js';
import { showDuration, type HttpResponse } from './http.js';
import { toCreatedId } from './decode.js';

/** The ids the client has seen per Role name, from its latest listing and its own creates. */
export interface KnownIds {
  listed: boolean;
  byName: Map<string, Set<string>>;
}

export interface CreateSteps {
  fields: RoleFields;
  known: KnownIds;
  /** The tenant's `timeout`: the settle window is measured in it (see `settleWaits`). */
  timeoutMs: number;
  sleep: ((ms: number) => Promise<void>) | undefined;
  /** One send (with the transport's own retries for answers that prove nothing was done). */
  send(): Promise<HttpResponse>;
  relist(): Promise<Role[]>;
  failure(answer: HttpResponse): RoleflowError;
  /** Told in one line when a create's outcome is unknown and the settle window starts (a silent wait looks like a hang). */
  notice?: ((line: string) => void) | undefined;
}


/**
 * A create is sent once (PRODUCT.md, "Apply semantics"). When its outcome is unknown — no answer
 * in time, a connection cut after sending, a 5xx other than 503 — it is never sent again: the
 * tenant may be slow and carry out the first attempt later, and a second send would then make a
 * duplicate. Instead the tenant is re-listed over a settle window (`settleWaits`): a Role with
 * this name, description and content whose id was not there before the send is this create,
 * done. "Not there before" uses the ids of this name from the client's latest listing (apply
 * lists the tenant first); a client that never listed accepts any identical Role, which leaves
 * the tenant exactly as asked. When the window closes with no such Role, the outcome is unknown
 * (code `outcome_unknown`): the next `apply` plans from the tenant as it is then.
 */
export async function createRoleOnce(steps: CreateSteps): Promise<string> {
  const { fields, known } = steps;
  const before = known.listed ? new Set(known.byName.get(fields.name) ?? []) : undefined;
  let lost: RoleflowError;
  let answered = true;
  try {
    const answer = await steps.send();
    if (answer.status >= 200 && answer.status < 300) return await createdId(answer, steps, before);
    // 4xx, and 503 (the transport's retries ran out), say the service did not do it.
    if (answer.status < 500 || answer.status === 503) throw steps.failure(answer);
    lost = steps.failure(answer);
  } catch (error) {
    if (!(error instanceof RoleflowError && error.code === 'no_answer')) throw error;
    lost = error;
    answered = false;
  }
  return settle(steps, before, lost, settleWaits(steps.timeoutMs, answered));
}

/**
 * The waits before each re-list of the settle window, re-listed after 1/8, 2/8, 4/8 and 8/8 of
 * it: the first look comes soon, since a lost answer usually follows a change already made.
 * With no answer (a timeout, a connection cut after sending) the tenant may still be working on
 * it: the window is twice its `timeout` (it already took longer than that; it gets as long
 * again, and once more). After a 5xx answer it has said it is done with the request, and the
 * window is shorter: at most 5 s.
 */
export function settleWaits(timeoutMs: number, answered: boolean): number[] {
  const window = answered ? Math.min(2 * timeoutMs, ANSWERED_WINDOW_MS) : 2 * timeoutMs;
  const looks = [1 / 8, 2 / 8, 4 / 8, 1].map((share) => Math.max(1, Math.floor(window * share)));
  return looks.map((at, i) => Math.max(1, at - (looks[i - 1] ?? 0)));
}

const ANSWERED_WINDOW_MS = 5_000;

async function settle(steps: CreateSteps, before: Set<string> | undefined, lost: RoleflowError, waits: number[]): Promise<string> {
  const sleep = steps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const window = showDuration(waits.reduce((a, b) => a + b, 0));
  steps.notice?.(`${lost.message}; not sent again: watching the tenant for up to ${window} to see whether role ${quote(steps.fields.name)} appears`);
  let listError: string | undefined;
  for (const wait of waits) {
    await sleep(wait);
    let roles: Role[];
    try {
      roles = await steps.relist();
    } catch (error) {
      listError = error instanceof Error ? error.message : String(error);
      continue;
    }
    listError = undefined;
    const id = findCreated(roles, steps.fields, before);
    if (id !== undefined) return id;
  }
  const looked = listError === undefined ? `it had not appeared on the tenant ${window} later` : `re-listing the tenant failed (${listError})`;
  // A create that was sent, may still be carried out, and had not appeared when the settle
  // window closed: apply reports its Role as `unknown`, never created, never failed.
  throw new RoleflowError(`${lost.message}; ${looked}, and it was not sent again: the tenant may still create it`, 'outcome_unknown');
}

/** The id from a 2xx; when the answer does not carry one, the listing tells which Role is new. */
async function createdId(answer: HttpResponse, steps: CreateSteps, before: Set<string> | undefined): Promise<string> {
  try {
    return toCreatedId(jsonBody(answer), `POST ${answer.request.path}`);
  } catch (error) {
    const found = findCreated(await steps.relist(), steps.fields, before);
    if (found === undefined) throw error;
    return found;
  }
}

function findCreated(roles: readonly Role[], fields: RoleFields, before: Set<string> | undefined): string | undefined {
  const { name, description, content } = fields;
  const created = roles.find((r) => r.name === name && r.description === description && r.content === content && !before?.has(r.id));
  return created?.id;
}
