import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const dir = join(repoRoot, 'schemas');
const schemas = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
const load = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;

describe('the JSON Schemas editors use', () => {
  it.each(schemas)('%s names itself with an $id', (file) => {
    expect(load(file)['$id']).toBe(`https://roleflow.dev/schemas/${file}`);
  });

  it('offers the transports as values an editor can complete (anyOf of enums, not if/then/else)', () => {
    const transports = (load('flow-test.schema.json')['definitions'] as Record<string, Record<string, unknown>>)['transports']!;
    expect(transports['if']).toBeUndefined();
    const branches = transports['anyOf'] as { enum?: string[]; items?: { $ref?: string } }[];
    expect(branches[0]!.enum).toEqual(['https', 'ws']);
    expect(branches[1]!.items?.$ref).toBe('#/definitions/transportName');
  });
});
