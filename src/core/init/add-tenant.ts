import { isMap, isScalar, parseDocument, stringify, type Document } from 'yaml';
import { tokenEnvFor, type InitOptions } from './templates.js';

type Tenant = NonNullable<InitOptions['tenant']>;

/** What adding a tenant to an existing config came to: the new text, or why it was left alone. */
export type AddTenantOutcome =
  | { added: true; text: string }
  /** `present`: the config already has a tenant of that name. */
  | { added: false; present: boolean; reason: string };

/**
 * `init --tenant NAME --base-url URL` in a repository that has a config: the config's text with
 * the tenant added under `tenants:` (made when missing). Every other byte is kept — comments and
 * their alignment, order, quoting: the tenant's lines are put in after the last tenant of a block
 * `tenants:` (or at the end); a flow `tenants: {…}` is rewritten by the `yaml` package's Document
 * API, which keeps comments. A config that is not a YAML mapping, whose `tenants` is not a mapping,
 * or that already has the tenant, is left alone with the reason.
 */
export function addTenantToConfig(text: string, tenant: Tenant, preview = false): AddTenantOutcome {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { added: false, present: false, reason: `not valid YAML (${doc.errors[0]!.message.split('\n')[0]})` };
  if (doc.contents !== null && !isMap(doc.contents)) return { added: false, present: false, reason: 'not a YAML mapping' };
  const entry = {
    base_url: tenant.baseUrl,
    ...(tenant.wsUrl === undefined ? {} : { ws_url: tenant.wsUrl }),
    token_env: tokenEnvFor(tenant.name),
    ...(preview && { preview: true }),
  };
  const tenants = doc.get('tenants', true);
  if (tenants !== undefined && tenants !== null && !(isScalar(tenants) && tenants.value === null) && !isMap(tenants)) {
    return { added: false, present: false, reason: 'its tenants: is not a mapping' };
  }
  if (isMap(tenants) && tenants.has(tenant.name)) return { added: false, present: true, reason: `it already has tenant "${tenant.name}"` };
  const expected = { ...(doc.toJS() as Record<string, unknown> | null) };
  expected['tenants'] = { ...((expected['tenants'] as Record<string, unknown> | null) ?? {}), [tenant.name]: entry };
  const inserted = insertLines(text, doc, tenant.name, entry);
  // The text edit is checked: it must read as the config plus the tenant, else the Document way.
  if (inserted !== undefined && sameJson(parseDocument(inserted).toJS(), expected)) return { added: true, text: inserted };
  if (isMap(tenants)) tenants.set(doc.createNode(tenant.name), doc.createNode(entry));
  else doc.set('tenants', doc.createNode({ [tenant.name]: entry }));
  return { added: true, text: doc.toString({ lineWidth: 0 }) };
}

/** The tenant's lines put into `text`: after a block `tenants:`'s last line, or a new `tenants:` at the end. */
function insertLines(text: string, doc: Document, name: string, entry: Record<string, string | boolean>): string | undefined {
  const block = (indent: string): string => stringify({ [name]: entry }, { lineWidth: 0 }).replace(/^(?=.)/gm, indent);
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const tenants = doc.get('tenants', true);
  if (tenants === undefined) {
    const lines = `tenants:\n${block('  ')}`.replace(/\n/g, newline);
    return text === '' || text.endsWith('\n') ? `${text}${lines}` : `${text}${newline}${lines}`;
  }
  if (!isMap(tenants) || tenants.flow === true || tenants.items.length === 0 || tenants.range === undefined || tenants.range === null) return undefined;
  const first = tenants.items[0]!.key;
  const start = isScalar(first) && first.range ? first.range[0] : undefined;
  if (start === undefined) return undefined;
  const indent = text.slice(text.lastIndexOf('\n', start - 1) + 1, start);
  if (!/^ +$/.test(indent)) return undefined;
  // After the line where the map's last value ends.
  const end = tenants.range[1];
  const lineEnd = text.indexOf('\n', end - 1 < 0 ? 0 : end - 1);
  const at = lineEnd === -1 ? text.length : lineEnd + 1;
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') ? '' : newline}${block(indent).replace(/\n/g, newline)}${text.slice(at)}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `init --preview-tenant NAME` in a repository that has a config: `preview: true` set on tenant
 * NAME (`local`: `local.preview`), through the `yaml` package's Document API, which keeps comments.
 * A tenant the config does not have is left alone with the reason; one already marked too.
 */
export function markPreviewTenant(text: string, name: string): { marked: true; text: string } | { marked: false; reason: string; already: boolean } {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents))) return { marked: false, reason: 'not a YAML mapping', already: false };
  const path = name === 'local' ? ['local', 'preview'] : ['tenants', name, 'preview'];
  if (name !== 'local' && !isMap(doc.getIn(['tenants', name], true))) {
    return { marked: false, reason: `it has no tenant "${name}": add it with --tenant ${name} --base-url URL`, already: false };
  }
  if (doc.getIn(path) === true) return { marked: false, reason: `"${name}" is marked preview: true already`, already: true };
  doc.setIn(path, true);
  return { marked: true, text: doc.toString({ lineWidth: 0 }) };
}

/** The tenant a config marks `preview: true` (the first of its tenants, else `local` with `local.preview`), if any. */
export function configuredPreviewTenant(text: string): string | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  const value = doc.toJS() as { tenants?: Record<string, { preview?: unknown } | null>; local?: { preview?: unknown } | null } | null;
  const marked = Object.entries(value?.tenants ?? {}).find(([, tenant]) => tenant?.preview === true);
  return marked?.[0] ?? (value?.local?.preview === true ? 'local' : undefined);
}
