import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runBin, tempDir } from '../helpers/cli.js';

// dist/bin.cjs runs the CLI bundle through a V8 code cache kept in $XDG_CACHE_HOME/roleflow (or
// ~/.cache/roleflow): one file per command word, made by the first run, reused after.

describe('the compile cache of the built CLI', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await tempDir('roleflow-cache-'));
  });
  afterEach(async () => cleanup());

  const cacheDir = (): string => join(home, 'roleflow');
  // Its files: the folder parsed/ holds the parsed flow test files (test/cli/parse-cache.test.ts).
  const files = (): string[] => (existsSync(cacheDir()) ? readdirSync(cacheDir()).filter((f) => statSync(join(cacheDir(), f)).isFile()).sort() : []);
  // The CLI bundle's own; a run that loads a vendored bundle (yaml, ajv…) writes one for it too.
  const bundleFiles = (): string[] => files().filter((f) => f.endsWith('-roleflow.cjs.v8'));
  const validate = (env: Record<string, string | undefined> = {}) => runBin(['validate'], { env: { XDG_CACHE_HOME: home, ...env } });

  it('is written by the first run of a command, private to the user, and reused unchanged by the next', async () => {
    const first = await validate();
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const [file, ...others] = bundleFiles();
    expect(others).toEqual([]);
    // This repository's flow test files were parsed, their schemas compiled: yaml, ajv and the validators were loaded.
    expect(files().filter((f) => !f.endsWith('-roleflow.cjs.v8')).map((f) => f.replace(/^.*-validate-/, ''))).toEqual(['ajv.cjs.v8', 'validators.cjs.v8', 'yaml.cjs.v8']);
    expect(file).toMatch(new RegExp(`^[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}-validate-roleflow\\.cjs\\.v8$`));
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir(), file!)).mode & 0o777).toBe(0o600);
    const written = readFileSync(join(cacheDir(), file!));
    expect(written.length).toBeGreaterThan(10_000);

    const second = await validate();
    expect(second).toEqual(first);
    // V8 accepted it: a refused cache is written again.
    expect(readFileSync(join(cacheDir(), file!)).equals(written)).toBe(true);

    // Other commands, --version and a command's --help each have their own; a failed run writes none.
    expect((await runBin(['--version'], { env: { XDG_CACHE_HOME: home } })).code).toBe(0);
    expect((await runBin(['validate', '--help'], { env: { XDG_CACHE_HOME: home } })).code).toBe(0);
    expect((await runBin(['plan', '--no-such-flag'], { env: { XDG_CACHE_HOME: home } })).code).toBe(1);
    expect(bundleFiles()).toEqual([file, file!.replace('-validate-', '-version-'), file!.replace('-validate-', '-validate-help-')].sort());
  });

  it('a damaged cache file costs one compile, not a wrong answer, and is replaced', async () => {
    const clean = await validate({ NODE_DISABLE_COMPILE_CACHE: '1' });
    await validate();
    const [file] = bundleFiles();
    writeFileSync(join(cacheDir(), file!), Buffer.alloc(50_000, 7));
    expect(await validate()).toEqual(clean);
    expect(readFileSync(join(cacheDir(), file!)).subarray(0, 64).equals(Buffer.alloc(64, 7))).toBe(false);
  });

  it('neither reads nor writes a cache folder that others can write to', async () => {
    await validate();
    const [file] = bundleFiles();
    chmodSync(cacheDir(), 0o777);
    writeFileSync(join(cacheDir(), file!), Buffer.alloc(50_000, 7));
    const run = await validate();
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // Not read (the output is right) and not replaced: the planted bytes are still there.
    expect(readFileSync(join(cacheDir(), file!)).equals(Buffer.alloc(50_000, 7))).toBe(true);
    for (const f of files()) rmSync(join(cacheDir(), f));
    await validate();
    expect(files()).toEqual([]);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes nothing; a cache folder that cannot be made is skipped silently', async () => {
    expect(await validate({ NODE_DISABLE_COMPILE_CACHE: '1' })).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(cacheDir())).toBe(false);
    const notADir = join(home, 'file');
    writeFileSync(notADir, 'x');
    const run = await validate({ XDG_CACHE_HOME: notADir });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('valid');
  });

  it('reads bundles the build made pure ASCII (bin.cjs reads them as latin1, so a UTF-8 byte would be misread)', () => {
    const dist = join(repoRoot, 'dist');
    const bundles = ['roleflow.cjs', ...readdirSync(join(dist, 'vendor')).map((f) => join('vendor', f))];
    expect(bundles.length).toBeGreaterThan(1);
    for (const file of bundles) expect(readFileSync(join(dist, file)).findIndex((byte) => byte > 0x7f), file).toBe(-1);
  });

  it('runs the CLI bundle in strict mode, as its ES module sources run everywhere else (vitest)', () => {
    // A directive must come first in the function: esbuild's own comes after the bundle's banner.
    const head = readFileSync(join(repoRoot, 'dist', 'roleflow.cjs'), 'latin1').slice(0, 200);
    expect(head).toMatch(/^\(function \(exports, require, module, __filename, __dirname\) \{'use strict';/);
  });

  it("removes other builds' files once unused for a week, or once two newer other builds wrote", async () => {
    await validate();
    const other = (build: string, command: string, daysAgo: number): string => {
      const path = join(cacheDir(), `${build}-v20.0.0-x64-${command}-roleflow.cjs.v8`);
      writeFileSync(path, 'x');
      const when = new Date(Date.now() - daysAgo * 24 * 3600 * 1000);
      utimesSync(path, when, when);
      return path;
    };
    const stale = other('0000000000000000', 'plan', 8);
    const newest = [other('1111111111111111', 'plan', 1), other('1111111111111111', 'test', 6)];
    const newer = other('2222222222222222', 'plan', 2);
    const oldest = other('3333333333333333', 'plan', 3);
    // The next write (a command with no cache yet) tidies the folder.
    await runBin(['--help'], { env: { XDG_CACHE_HOME: home } });
    expect([stale, oldest].filter(existsSync)).toEqual([]);
    expect([...newest, newer].filter(existsSync)).toEqual([...newest, newer]);
    expect(bundleFiles().filter((f) => !/^[0-3]{16}-/.test(f))).toHaveLength(2);
  });
});

describe("the built CLI's bundled packages", () => {
  it('are read only by a run that uses them: yaml, ajv and the validators by a run that parses or compiles, not by a repeat of unchanged files', async () => {
    const { dir: home, cleanup } = await tempDir('roleflow-cache-');
    try {
      // A preload that notes each bundle bin.cjs reads (it reads them with readFileSync).
      const hook = join(home, 'hook.cjs');
      const log = join(home, 'read.log');
      writeFileSync(
        hook,
        `const fs = require('node:fs'); const read = fs.readFileSync; const seen = [];
         fs.readFileSync = function (path, ...rest) { if (typeof path === 'string' && path.endsWith('.cjs') && !path.endsWith('bin.cjs')) seen.push(require('node:path').basename(path)); return read.call(this, path, ...rest); };
         process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, seen.sort().join(' ')));`,
      );
      const read = async (args: string[]): Promise<string> => {
        const run = await runBin(args, { env: { XDG_CACHE_HOME: home, NODE_OPTIONS: `--require=${hook}` } });
        expect(run).toMatchObject({ code: 0, stderr: '' });
        return readFileSync(log, 'utf8');
      };
      expect(await read(['--version'])).toBe('roleflow.cjs');
      // The first validate parses this repository's flow test files and compiles their schemas.
      expect(await read(['validate'])).toBe('ajv.cjs roleflow.cjs validators.cjs yaml.cjs');
      // The next one reads them from the parse cache: nothing to parse, nothing to compile.
      expect(await read(['validate'])).toBe('roleflow.cjs');
    } finally {
      await cleanup();
    }
  });

  it("load without Node's own copy of undici (reading globalThis.Headers loads it: 25-40 ms of every command that talks to a tenant)", () => {
    // Each is a CommonJS module inside its wrapper function (the build writes them so): run as bin.cjs runs them.
    const load = `const load = (path) => { const module = { exports: {} }; require('node:vm').runInThisContext(require('node:fs').readFileSync(path, 'latin1'))(module.exports, require('node:module').createRequire(path), module, path, require('node:path').dirname(path)); return module.exports; };`;
    const script = `${load} load(${JSON.stringify(join(repoRoot, 'dist/vendor/undici.cjs'))}).request; load(${JSON.stringify(join(repoRoot, 'dist/vendor/ws.cjs'))}).WebSocket;
      console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('deps/undici'))));`;
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual([]);
    // The check sees it when it happens.
    expect(JSON.parse(execFileSync(process.execPath, ['-e', `globalThis.Headers; ${script}`], { encoding: 'utf8' }))).not.toEqual([]);
  });
});
