import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCli } from '../../src/cli.js';
import { loadSchema } from '../../src/files/package-root.js';
import { repoRoot } from '../helpers/cli.js';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

/** Every key path of a JSON Schema: `roles.dir`, `tenants.<name>.base_url`, `policy.plan[].level`. */
export function keyPaths(schema: SchemaNode & { definitions?: Record<string, SchemaNode> }): string[] {
  const out: string[] = [];
  const resolve = (node: SchemaNode): SchemaNode => (node.$ref ? resolve(schema.definitions![node.$ref.split('/').at(-1)!]!) : node);
  const walk = (node: SchemaNode, prefix: string, depth: number) => {
    if (depth > 8) return;
    const n = resolve(node);
    for (const [key, child] of Object.entries(n.properties ?? {})) {
      out.push(`${prefix}${key}`);
      walk(child, `${prefix}${key}.`, depth + 1);
    }
    if (typeof n.additionalProperties === 'object') walk(n.additionalProperties, `${prefix}<name>.`, depth + 1);
    if (n.items) walk(n.items, `${prefix.slice(0, -1)}[].`, depth + 1);
    for (const sub of [...(n.oneOf ?? []), ...(n.anyOf ?? []), ...(n.allOf ?? [])]) walk(sub, prefix, depth + 1);
  };
  walk(schema, '', 0);
  return [...new Set(out)];
}

describe('docs/configuration.md', () => {
  const page = read('docs/configuration.md');
  const paths = keyPaths(loadSchema('config') as SchemaNode);

  it('names every key of the config schema, each in a row with its default', () => {
    // `tenants.<name>` and `judges.<name>` are the maps themselves, documented by their keys.
    expect(paths.length).toBeGreaterThan(60);
    const missing = paths.filter((p) => !page.includes(`\`${p}\``));
    expect(missing).toEqual([]);
    const rows = page.split('\n').filter((l) => /^\| `[a-z_<>.[\]]+` \|/.test(l));
    for (const row of rows) expect(row.split('|').length, row).toBeGreaterThanOrEqual(5);
  });

  it('the key walk finds nested, mapped and listed keys', () => {
    expect(paths).toEqual(expect.arrayContaining(['roles.max_deletes', 'tenants.<name>.api.delete', 'policy.plan[].level', 'judges.<name>.verdict.pass']));
  });
});

describe('docs/commands.md', () => {
  const page = read('docs/commands.md');
  /** Options every command has, described once under the table. */
  const COMMON = new Set(['--config', '--verbose', '--color', '--no-color', '--tenant', '--base-url', '--ws-url', '--help', '--version']);

  it("has a row for every command, naming each of its options", () => {
    const definitions = buildCli({ colors: false })
      .definitions()
      .filter((d) => !d.path.split(' ').some((w) => w.startsWith('-')));
    expect(definitions.length).toBeGreaterThan(15);
    const problems = definitions.flatMap((d) => {
      const command = d.path; // "roleflow report merge"
      const row = page.split('\n').find((l) => l.startsWith('| ') && [`\`${command} `, `\`${command}\``].some((start) => l.split(' | ')[0]!.includes(start)));
      if (row === undefined) return [`no row for ${command}`];
      const cell = row.split(' | ')[0]!;
      const flags = d.options.flatMap((o) => o.definition.split(/[ ,]/).filter((w) => w.startsWith('--')));
      return flags.filter((f) => !COMMON.has(f) && !cell.includes(f)).map((f) => `${command}: ${f} is not in its row`);
    });
    expect(problems).toEqual([]);
  });
});
