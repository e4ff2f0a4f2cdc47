import { RoleflowError } from '../core/errors.js';
import type { Role, RoleFields } from '../core/model.js';
import { backoffMs, jsonBody } from './http-errors.js';
import { OutcomeUnknownError, type HttpResponse } from './http.js';
import { toCreatedId } from './normalize.js';

/** The ids the client has seen per Role name, from its latest listing and its own creates. */
export interface KnownIds {
  listed: boolean;
  byName: Map<string, Set<string>>;
}

export interface CreateSteps {
  fields: RoleFields;
  known: KnownIds;
  retries: number;
  sleep: ((ms: number) => Promise<void>) | undefined;
  /** One send (with the transport's own retries for answers that prove nothing was done). */
  send(): Promise<HttpResponse>;
  relist(): Promise<Role[]>;
  failure(answer: HttpResponse): RoleflowError;
}

/**
 * A create is never sent blindly twice (PRODUCT.md, "Apply semantics"). When an attempt's outcome
 * is unknown — no answer after sending, a reset, a 5xx other than 503 — the tenant is re-listed:
 * a Role with this name, description and content that was not there before the first send is
 * this create, done. "Not there before" uses the ids of this name from the client's latest
 * listing (apply lists the tenant first); a client that never listed accepts any identical Role,
 * which leaves the tenant exactly as asked. Only when re-listing shows nothing is it sent again.
 * Known limit: a service still working on the lost request when the list is read can make a
 * re-send a duplicate; the backoff before re-listing narrows that window.
 */
export async function createRoleOnce(steps: CreateSteps): Promise<string> {
  const { fields, known } = steps;
  const sleep = steps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const before = known.listed ? new Set(known.byName.get(fields.name) ?? []) : undefined;
  for (let resend = 0; ; resend++) {
    let lost: RoleflowError;
    try {
      const answer = await steps.send();
      if (answer.status >= 200 && answer.status < 300) return await createdId(answer, steps, before);
      if (answer.status < 500 || answer.status === 503) throw steps.failure(answer);
      lost = steps.failure(answer);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) throw error;
      lost = error;
    }
    await sleep(backoffMs(resend + 1, undefined));
    const id = await findCreated(steps, before, lost);
    if (id !== undefined) return id;
    if (resend >= steps.retries) {
      throw new RoleflowError(`${lost.message}; re-listing the tenant shows role "${fields.name}" was not created`);
    }
  }
}

/** The id from a 2xx; when the answer does not carry one, the listing tells which Role is new. */
async function createdId(answer: HttpResponse, steps: CreateSteps, before: Set<string> | undefined): Promise<string> {
  try {
    return toCreatedId(jsonBody(answer), `POST ${answer.request.path}`);
  } catch (error) {
    const found = await findCreated(steps, before, error as RoleflowError);
    if (found === undefined) throw error;
    return found;
  }
}

async function findCreated(steps: CreateSteps, before: Set<string> | undefined, lost: RoleflowError): Promise<string | undefined> {
  let roles: Role[];
  try {
    roles = await steps.relist();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new RoleflowError(
      `${lost.message}; whether role "${steps.fields.name}" was created is unknown (re-listing failed: ${why}); run again: the plan re-reads the tenant`,
    );
  }
  const { name, description, content } = steps.fields;
  const created = roles.find(
    (r) => r.name === name && r.description === description && r.content === content && !before?.has(r.id),
  );
  return created?.id;
}
