import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers/cli.js';

// The built CLI keeps the flow test files it parsed in its cache folder ($XDG_CACHE_HOME/roleflow/
// parsed/, one entry per file), and reads a file's entry instead of parsing it when the file's text
// is exactly the text the entry was made from.

/** A test without until.node or until.messages: validate names it in a warning, which shows what the run read. */
const quietTest = (name: string) => `flow: echo\ntests:\n  - name: ${name}\n    inputs: { text: hi }\n    expect:\n      outputs: [{ path: results, exists: true }]\n`;

describe('the cache of parsed flow test files', () => {
  let home: string;
  let repo: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    const cache = await tempDir('roleflow-parsed-');
    const work = await tempDir('roleflow-parsed-repo-');
    cleanups.push(cache.cleanup, work.cleanup);
    home = cache.dir;
    repo = work.dir;
    mkdirSync(join(repo, 'flows'));
    writeFileSync(join(repo, 'flows', 'a.yaml'), quietTest('first'));
    writeFileSync(join(repo, 'flows', 'b.yaml'), quietTest('second'));
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const parsedDir = (): string => join(home, 'roleflow', 'parsed');
  /** The entries but the one of the embedded tenant's flows file (validate reads the Roles its flows name). */
  const entries = (): string[] =>
    (existsSync(parsedDir()) ? readdirSync(parsedDir()).sort() : []).filter((e) => !readFileSync(join(parsedDir(), e), 'utf8').includes('"kind":"flow-role-references"'));
  const validate = (env: Record<string, string | undefined> = {}) => runBin(['validate'], { cwd: repo, env: { XDG_CACHE_HOME: home, ...env } });
  /** The entry made from `flows/<name>`: the one whose text is that file's. */
  const entryOf = (name: string): string => {
    const text = readFileSync(join(repo, 'flows', name), 'utf8');
    const found = entries().filter((e) => (JSON.parse(readFileSync(join(parsedDir(), e), 'utf8')) as { text: string }).text === text);
    expect(found).toHaveLength(1);
    return join(parsedDir(), found[0]!);
  };
  const warned = (run: { stderr: string }) => [...run.stderr.matchAll(/test "([^"]+)" has no until/g)].map((m) => m[1]);
  /** Rename the first test in `flows/a.yaml`'s entry (the file itself unchanged); the entry as now written. */
  const plantName = (name: string): unknown => {
    const entry = entryOf('a.yaml');
    const stored = JSON.parse(readFileSync(entry, 'utf8')) as { value: { tests: { name: string }[] } };
    stored.value.tests[0]!.name = name;
    writeFileSync(entry, JSON.stringify(stored));
    return stored;
  };

  it('writes one private entry per file on the first run; the next run reads them and says the same', async () => {
    const first = await validate();
    expect(first.code).toBe(0);
    expect(warned(first)).toEqual(['first', 'second']);
    expect(entries()).toHaveLength(2);
    expect(statSync(parsedDir()).mode & 0o777).toBe(0o700);
    for (const e of entries()) expect(statSync(join(parsedDir(), e)).mode & 0o777).toBe(0o600);
    const written = entries().map((e) => statSync(join(parsedDir(), e)).mtimeMs);
    expect(await validate()).toEqual(first);
    // Read, not written again.
    expect(entries().map((e) => statSync(join(parsedDir(), e)).mtimeMs)).toEqual(written);
  });

  it('reads an entry instead of parsing when the file holds exactly its text', async () => {
    await validate();
    plantName('read from the cache');
    expect(warned(await validate())).toEqual(['read from the cache', 'second']);
  });

  it('parses a file again once its text changed, even by one byte, and keeps the new parse', async () => {
    await validate();
    writeFileSync(join(repo, 'flows', 'a.yaml'), quietTest('first!'));
    expect(warned(await validate())).toEqual(['first!', 'second']);
    // A mistake is found where it is, though the file had an entry.
    writeFileSync(join(repo, 'flows', 'a.yaml'), quietTest('first').replace('outputs:', 'outputz:'));
    const run = await validate();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/flows\/a\.yaml:6:7: .*unknown key "outputz"/);
    expect(entries()).toHaveLength(2);
  });

  it('a damaged entry is a miss: the file is parsed, and the entry made again', async () => {
    const clean = await validate();
    const entry = entryOf('a.yaml');
    for (const damage of ['', '{"build":', 'null', '{"value": 1}', Buffer.alloc(3000, 0xff).toString('latin1')]) {
      writeFileSync(entry, damage);
      expect(await validate()).toEqual(clean);
      expect(JSON.parse(readFileSync(entry, 'utf8'))).toMatchObject({ kind: 'flow-test', file: 'flows/a.yaml' });
    }
  });

  it('neither reads nor writes a cache folder that others can write to, nor any with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    await validate();
    const stored = plantName('planted');
    chmodSync(join(home, 'roleflow'), 0o777);
    expect(warned(await validate())).toEqual(['first', 'second']);
    chmodSync(join(home, 'roleflow'), 0o700);
    expect(warned(await validate({ NODE_DISABLE_COMPILE_CACHE: '1' }))).toEqual(['first', 'second']);
    expect(JSON.parse(readFileSync(entryOf('a.yaml'), 'utf8'))).toEqual(stored);
  });

  it('keeps a schema file a test names once it compiled: the next run neither parses nor compiles it; a changed one is read again', async () => {
    mkdirSync(join(repo, 'flows', 'schemas'));
    const schemaFile = join(repo, 'flows', 'schemas', 's.json');
    writeFileSync(schemaFile, '{ "type": "object", "required": ["summary"] }\n');
    writeFileSync(join(repo, 'flows', 'a.yaml'), quietTest('first').replace('exists: true', 'schema: schemas/s.json'));
    const first = await validate();
    expect(first.code).toBe(0);
    const read = (e: string) => JSON.parse(readFileSync(join(parsedDir(), e), 'utf8')) as { kind: string; file: string; value: unknown };
    const schemaEntries = entries().filter((e) => read(e).kind === 'schema-file');
    expect(schemaEntries.map((e) => read(e))).toMatchObject([{ file: schemaFile, value: { type: 'object', required: ['summary'] } }]);
    expect(await validate()).toEqual(first);
    // Read, not compiled: a schema planted in the entry that would not compile goes unnoticed by validate.
    const entry = join(parsedDir(), schemaEntries[0]!);
    writeFileSync(entry, JSON.stringify({ ...read(schemaEntries[0]!), value: { type: 'strng' } }));
    expect(await validate()).toEqual(first);
    // The file changed: it is parsed and compiled again, and its mistake found.
    writeFileSync(schemaFile, '{ "type": "strng" }\n');
    const bad = await validate();
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/flows\/a\.yaml:\d+:\d+: schema schemas\/s\.json: invalid JSON schema/);
  });

  it('entries not rewritten for a week go when a run next writes one; a run that writes none leaves the folder alone', async () => {
    await validate();
    const old = join(parsedDir(), 'f'.repeat(32) + '.json');
    writeFileSync(old, '{}');
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(old, weekAgo, weekAgo);
    await validate();
    expect(existsSync(old)).toBe(true);
    writeFileSync(join(repo, 'flows', 'c.yaml'), quietTest('third'));
    await validate();
    expect(existsSync(old)).toBe(false);
    expect(entries()).toHaveLength(3);
  });
});
