import { json, message, MISSING_PARAMETERS, stringFields, type Answer, type Route, type RouteRequest } from './http-kit.js';
import type { RoleStore } from './store/role-store.js';

/** How `GET ?id=<unknown>` answers: 404, `[]`, or 200 with `{message}` (all plausible, all "absent"). */
export type UnknownIdStyle = '404' | 'empty' | 'error200';

const ROLE_FIELDS = ['name', 'description', 'content'] as const;
const NOT_FOUND = 'role not found';

/** Every form of the Role endpoints the interface shows; `disable` removes some per tenant. */
export function roleRoutes(store: RoleStore, unknownId: UnknownIdStyle): Route[] {
  const create = (req: RouteRequest): Answer => {
    const fields = stringFields(req.body, ROLE_FIELDS);
    if (!fields || fields.name === '') return message(400, MISSING_PARAMETERS);
    return json(200, { message: 'Role created', id: store.create(fields) });
  };
  const update =
    (text: string) =>
    (req: RouteRequest): Answer => {
      const fields = stringFields(req.body, ['id', ...ROLE_FIELDS]);
      if (!fields || fields.id === '' || fields.name === '') return message(400, MISSING_PARAMETERS);
      if (!store.update(fields.id, fields)) return message(404, NOT_FOUND);
      return json(200, { message: text, id: fields.id });
    };
  const remove = (id: string | undefined): Answer => {
    if (id === undefined || id === '') return message(400, MISSING_PARAMETERS);
    if (!store.delete(id)) return message(404, NOT_FOUND);
    return json(200, { message: 'Policy deleted', id });
  };

  return [
    { method: 'GET', path: '/admin/roles/get', body: false, mutates: false, handle: (req) => get(store, req, unknownId) },
    { method: 'POST', path: '/admin/roles/create', body: true, mutates: true, handle: create },
    { method: 'POST', path: '/admin/role/create', body: true, mutates: true, handle: create },
    { method: 'POST', path: '/admin/roles/update', body: true, mutates: true, handle: update('Role updated') },
    { method: 'POST', path: '/admin/policies/update', body: true, mutates: true, handle: update('Policy updated') },
    {
      method: 'POST',
      path: '/admin/policies/delete',
      body: true,
      mutates: true,
      handle: (req) => remove(stringFields(req.body, ['id'])?.id),
    },
    {
      method: 'DELETE',
      path: '/admin/policies/delete',
      body: false,
      mutates: true,
      handle: (req) => remove(new URLSearchParams(req.query).get('id') ?? undefined),
    },
  ];
}

function get(store: RoleStore, req: RouteRequest, unknownId: UnknownIdStyle): Answer {
  const id = req.query === '' ? null : new URLSearchParams(req.query).get('id');
  if (id === null) return { status: 200, body: store.listJson() };
  const role = store.json(id);
  if (role !== undefined) return { status: 200, body: `[${role}]` };
  if (unknownId === 'empty') return { status: 200, body: '[]' };
  return message(unknownId === '404' ? 404 : 200, NOT_FOUND);
}
