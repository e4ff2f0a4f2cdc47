import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../src/core/config/config.js';
import { describeError } from '../../src/terminal/error-line.js';
import { loadFlowTests } from '../../src/run/flows/test-session.js';
import { watchTests } from '../../src/run/flows/watch.js';
import { openTenant } from '../../src/tenant/open-tenant.js';
import { tempDir } from '../helpers/cli.js';

const FLOW = (name: string) => `flow: echo\ntests:\n  - name: ${name}\n`;

/** Resolves once `check` holds, polling; rejects after `ms`. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `watchTests` over `dir`'s flows with `run` (each call recorded in `runs`), what it prints collected. */
function startWatch(dir: string, config: Config, signal: AbortSignal, run: (paths: readonly string[] | undefined, runs: number) => Promise<number>) {
  const runs: (readonly string[] | undefined)[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const watching = watchTests(
    { cwd: dir, config, paths: [], embedded: true, debounceMs: 50 },
    {
      run: (paths) => (runs.push(paths), run(paths, runs.length)),
      openTenant: () => openTenant({ config, flags: {}, env: {}, cwd: dir }),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      describe: (error) => describeError(error, false, ['test']),
      signal,
      now: () => new Date(),
    },
  );
  return { runs, out, err, watching };
}

describe('test --watch, the loop', () => {
  it('runs again the file saved, goes on after an invalid file and a failing run, ignores a save that changed nothing, and ends with 130', async () => {
    const { dir, cleanup } = await tempDir('roleflow-watch-');
    const controller = new AbortController();
    try {
      await mkdir(join(dir, 'flows'));
      await writeFile(join(dir, 'flows/a.yaml'), FLOW('one'));
      await writeFile(join(dir, 'flows/b.yaml'), FLOW('two'));
      const config = { ...defaultConfig(join(dir, 'roleflow.config.yaml')) };
      const { runs, out, err, watching } = startWatch(dir, config, controller.signal, async (paths, count) => {
        // As a run does: every file loaded first, an invalid one stops it.
        await loadFlowTests(dir, config, paths ?? []);
        if (count === 2) throw new Error('the tenant went away');
        return 0;
      });
      await until(() => runs.length === 1 && out.some((l) => l.startsWith('Watching')));
      expect(runs[0]).toBeUndefined();

      await writeFile(join(dir, 'flows/a.yaml'), FLOW('one, renamed'));
      await until(() => runs.length === 2);
      expect(runs[1]).toEqual(['flows/a.yaml']);
      await until(() => err.some((l) => l.includes('the tenant went away')));

      await writeFile(join(dir, 'flows/b.yaml'), 'flow: echo\ntests: [\n');
      await until(() => err.some((l) => l.includes('flows/b.yaml:')));
      expect(runs[2]).toEqual(['flows/b.yaml']);

      await writeFile(join(dir, 'flows/b.yaml'), FLOW('two, fixed'));
      await until(() => runs.length === 4);
      expect(runs[3]).toEqual(['flows/b.yaml']);
      await until(() => out.filter((l) => l.startsWith('Watching')).length === 4);

      // The same content saved again is no change.
      await writeFile(join(dir, 'flows/b.yaml'), FLOW('two, fixed'));
      await new Promise((r) => setTimeout(r, 400));
      expect(runs).toHaveLength(4);

      controller.abort();
      expect(await watching).toBe(130);
    } finally {
      controller.abort();
      await cleanup();
    }
  });

  it('reruns the tests of a schema file made invalid (its error shown) and again once it is fixed, also when it was invalid from the start', async () => {
    const { dir, cleanup } = await tempDir('roleflow-watch-schema-');
    const controller = new AbortController();
    try {
      await mkdir(join(dir, 'flows'));
      const schemaTest = 'flow: echo\ntests:\n  - name: shaped\n    expect:\n      outputs:\n        - { path: results, schema: ./shape.json }\n';
      await writeFile(join(dir, 'flows/a.yaml'), schemaTest);
      await writeFile(join(dir, 'flows/shape.json'), '{ "type": "array" }\n');
      await writeFile(join(dir, 'flows/b.yaml'), schemaTest.replace('./shape.json', './broken.json'));
      await writeFile(join(dir, 'flows/broken.json'), '{ bad\n');
      const config = { ...defaultConfig(join(dir, 'roleflow.config.yaml')) };
      const { runs, out, err, watching } = startWatch(dir, config, controller.signal, async (paths) => {
        await loadFlowTests(dir, config, paths ?? []);
        return 0;
      });
      await until(() => runs.length === 1 && out.some((l) => l.startsWith('Watching')));

      await writeFile(join(dir, 'flows/shape.json'), '{ bad\n');
      await until(() => runs.length === 2);
      expect(runs[1]).toEqual(['flows/a.yaml']);
      await until(() => err.some((l) => l.includes('flows/a.yaml:6:11: schema ./shape.json')));

      await writeFile(join(dir, 'flows/shape.json'), '{ "type": "array", "minItems": 0 }\n');
      await until(() => runs.length === 3);
      expect(runs[2]).toEqual(['flows/a.yaml']);

      await writeFile(join(dir, 'flows/broken.json'), '{ "type": "array" }\n');
      await until(() => runs.length === 4);
      expect(runs[3]).toEqual(['flows/b.yaml']);
      await until(() => out.filter((l) => l.startsWith('Watching')).length === 4);

      controller.abort();
      expect(await watching).toBe(130);
    } finally {
      controller.abort();
      await cleanup();
    }
  });

  it('applies a saved role file to the embedded tenant and reruns the tests whose flows use it', async () => {
    const { dir, cleanup } = await tempDir('roleflow-watch-roles-');
    const controller = new AbortController();
    try {
      await mkdir(join(dir, 'flows'));
      await mkdir(join(dir, 'roles'));
      await writeFile(join(dir, 'emulator-flows.yaml'), 'flows:\n  support:\n    steps:\n      - { service: llm, role: helper }\n    outputs: { results: [{ text: "${role.helper.content}" }] }\n  echo:\n    steps:\n      - { service: echo }\n    outputs: { results: [] }\n');
      await writeFile(join(dir, 'roleflow.config.yaml'), 'local: { flows_config: emulator-flows.yaml }\n');
      await writeFile(join(dir, 'flows/support.yaml'), 'flow: support\ntests:\n  - name: answers\n');
      await writeFile(join(dir, 'flows/echo.yaml'), FLOW('echoes'));
      await writeFile(join(dir, 'roles/helper.md'), '---\nname: helper\ndescription: helps\n---\nBe kind.\n');
      const { loadConfig } = await import('../../src/files/config-file.js');
      const config = await loadConfig(dir, undefined, {});
      const { runs, out, err, watching } = startWatch(dir, config, controller.signal, async () => 0);
      await until(() => out.some((l) => l.startsWith('Watching')));
      await writeFile(join(dir, 'roles/helper.md'), '---\nname: helper\ndescription: helps\n---\nBe very kind.\n');
      await until(() => runs.length === 2);
      expect(runs[1]).toEqual(['flows/support.yaml']);
      expect(out.join('\n')).toContain('roles/helper.md: applied to the embedded tenant (Plan: 1 to create, 0 to update, 0 to delete.)');
      expect(err).toEqual([]);
      controller.abort();
      expect(await watching).toBe(130);
    } finally {
      controller.abort();
      await cleanup();
    }
  });
});
