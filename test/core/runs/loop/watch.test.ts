import { describe, expect, it } from 'vitest';
import { classifyChange, rerunScope, type WatchedFile } from '../../../../src/core/runs/loop/watch.js';

const roots = { flows: ['/r/flows'], rolesDir: '/r/roles', schemas: new Set(['/r/schemas/reply.json']) };
const file = (abs: string, flow: string, more: Partial<WatchedFile> = {}): WatchedFile => ({ abs, flows: new Set([flow]), schemas: new Set(), leakRoles: new Set(), ...more });
const known = [
  file('/r/flows/a.yaml', 'support'),
  file('/r/flows/b.yaml', 'summarize', { schemas: new Set(['/r/schemas/reply.json']) }),
  file('/r/flows/c.yaml', 'other', { leakRoles: new Set(['support-agent']) }),
];
const shown = (abs: string) => abs.replace('/r/', '');

describe('test --watch: what a saved file reruns', () => {
  it('tells flow test files, snapshots, schemas and role files from everything else', () => {
    expect(classifyChange('/r/flows/a.yaml', roots)).toEqual({ kind: 'flow-file', abs: '/r/flows/a.yaml' });
    expect(classifyChange('/r/flows/__snapshots__/a.yaml.snap.yaml', roots)).toEqual({ kind: 'snapshot', abs: '/r/flows/__snapshots__/a.yaml.snap.yaml', flowFile: '/r/flows/a.yaml' });
    expect(classifyChange('/r/schemas/reply.json', roots)).toEqual({ kind: 'schema', abs: '/r/schemas/reply.json' });
    expect(classifyChange('/r/roles/team/agent.md', roots)).toEqual({ kind: 'role', abs: '/r/roles/team/agent.md' });
    for (const other of ['/r/roles/README.md', '/r/flows/notes.txt', '/r/roleflow-report.json', '/r/.roleflow/last-run.json', '/r/flowsX/a.yaml']) {
      expect(classifyChange(other, roots), other).toBeUndefined();
    }
  });

  it('reruns a changed file, the file of a snapshot, and the files naming a schema', () => {
    expect(rerunScope([{ kind: 'flow-file', abs: '/r/flows/a.yaml' }], known, { names: new Set(), flowsOfRole: undefined }, shown)).toEqual({ files: ['/r/flows/a.yaml'], reasons: ['flows/a.yaml changed'] });
    expect(rerunScope([{ kind: 'schema', abs: '/r/schemas/reply.json' }], known, { names: new Set(), flowsOfRole: undefined }, shown)?.files).toEqual(['/r/flows/b.yaml']);
    expect(rerunScope([{ kind: 'snapshot', abs: 'x', flowFile: '/r/flows/c.yaml' }], known, { names: new Set(), flowsOfRole: undefined }, shown)?.files).toEqual(['/r/flows/c.yaml']);
  });

  it('reruns the tests whose flows use a changed Role when the flows file says which, else all of them', () => {
    const change = [{ kind: 'role' as const, abs: '/r/roles/agent.md' }];
    const names = new Set(['support-agent']);
    const flowsOfRole = new Map([['support-agent', new Set(['support'])]]);
    expect(rerunScope(change, known, { names, flowsOfRole }, shown)).toEqual({ files: ['/r/flows/a.yaml', '/r/flows/c.yaml'], reasons: ['Role support-agent changed'] });
    expect(rerunScope(change, known, { names, flowsOfRole: undefined }, shown)?.files).toBe('all');
    expect(rerunScope(change, known, { names: new Set(['unused']), flowsOfRole }, shown)?.files).toEqual([]);
  });
});
