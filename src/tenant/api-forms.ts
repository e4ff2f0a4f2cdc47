import { RoleflowError } from '../core/errors.js';
import { bodyMessage } from './http-errors.js';
import type { HttpResponse } from './exchange.js';

/**
 * One operation the interface shows in two forms (two paths, or two methods). The first form is
 * tried; when the tenant answers "no such route" the other is, and whichever works is remembered
 * for the client's life. A pinned form (`api:` in the config) is used as is, never probed.
 * Only one probe runs at a time: calls that arrive meanwhile wait for its verdict, so a run of
 * concurrent creates costs a single probe of the missing form.
 */
export class FormChooser<F extends string> {
  private known: F | undefined;
  private probing: Promise<unknown> | undefined;
  /** Forms a probe found missing, with the answer that said so. */
  private readonly missing = new Map<F, HttpResponse>();

  constructor(
    private readonly forms: readonly [F, F],
    pinned: F | undefined,
  ) {
    this.known = pinned;
  }

  /**
   * Sends with the known form, or probes. `verdict` judges what an answer says about the form
   * (only asked while probing: once a form is known, its 404 is the service's word about the
   * role). Every answer but "missing" is returned, error statuses included.
   */
  async run(send: (form: F) => Promise<HttpResponse>, verdict: (answer: HttpResponse) => RouteVerdict): Promise<HttpResponse> {
    while (this.known === undefined && this.probing) await this.probing.catch(() => undefined);
    if (this.known !== undefined) return send(this.known);
    const probe = this.probe(send, verdict);
    this.probing = probe;
    try {
      return await probe;
    } finally {
      if (this.probing === probe) this.probing = undefined;
    }
  }

  private async probe(send: (form: F) => Promise<HttpResponse>, verdict: (answer: HttpResponse) => RouteVerdict): Promise<HttpResponse> {
    for (const form of this.forms) {
      if (this.missing.has(form)) continue;
      const answer = await send(form);
      const said = verdict(answer);
      if (said === 'exists') this.known = form;
      // "unsure" (a 5xx, a 429, a refused token) proves nothing either way: the caller gets the
      // answer and the next call probes again, skipping forms already seen missing.
      if (said !== 'missing') return answer;
      this.missing.set(form, answer);
    }
    const tried = [...this.missing.values()].map((a) => `${a.request.method} ${a.request.path}: ${a.status} ${bodyMessage(a.text) ?? ''}`.trim());
    // Forgotten, so that one ambiguous pair of 404s does not condemn every later call.
    this.missing.clear();
    throw new RoleflowError(
      `${tried.join('; ')} (neither form of the interface answers here; if one should, pin it with "api:" in the tenant's config)`,
    );
  }
}

/** What an answer tells about the form it was sent to. */
export type RouteVerdict = 'missing' | 'exists' | 'unsure';

/**
 * Whether an answer shows the form is missing on this tenant, is there, or says nothing about it.
 * Update and delete answer 404 for an unknown id too, so the rule is: 405 is always about the
 * route. A 404 is about the role when its message names the id, or speaks of a role/policy/id in
 * words (once path-like tokens such as "Cannot POST /admin/roles/update" are removed); a bare 404
 * ("Not Found", empty, HTML) is about the route. When both forms answer a bare 404 the chooser
 * reports both and remembers neither. A 2xx, or a 400/409/422 about the body, proves the route.
 */
export function routeVerdict(answer: HttpResponse, id?: string): RouteVerdict {
  const { status } = answer;
  if (status === 405) return 'missing';
  if (status === 404) return roleNotFound(answer, id) ? 'exists' : 'missing';
  if ((status >= 200 && status < 300) || status === 400 || status === 409 || status === 422) return 'exists';
  return 'unsure';
}

function roleNotFound(answer: HttpResponse, id: string | undefined): boolean {
  const text = bodyMessage(answer.text) ?? '';
  if (id !== undefined && id !== '' && text.includes(id)) return true;
  return /\b(role|roles|policy|policies|id)\b/i.test(text.replace(/\S*\/\S*/g, ' '));
}
