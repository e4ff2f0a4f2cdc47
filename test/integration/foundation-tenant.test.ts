import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config/config.js';
import { startEmulator } from '../../src/emulator/index.js';
import { loadConfig } from '../../src/files/config-file.js';
import { openTenant } from '../../src/tenant/open-tenant.js';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { everyText, rejection, type VerboseLine } from './client-kit.js';

describe('the embedded local tenant', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('roleflow-local-'));
  });
  afterEach(async () => {
    await cleanup();
  });

  it('is used when no tenant is configured, with its state in .roleflow/local.json that outlives the command', async () => {
    const first = await openTenant({ config: defaultConfig(), flags: {}, env: {}, cwd: dir });
    expect(first.target).toMatchObject({ name: 'local', baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const { id } = await first.client.createRole({ name: 'kept', description: 'across runs', content: 'body\n' });
    await first.close();

    const saved = JSON.parse(await readFile(join(dir, '.roleflow', 'local.json'), 'utf8')) as { id: string }[];
    expect(saved.map((r) => r.id)).toEqual([id]);
    expect(await readFile(join(dir, '.roleflow', '.gitignore'), 'utf8')).toMatch(/^\*$/m);

    const second = await openTenant({ config: defaultConfig(), flags: {}, env: {}, cwd: dir });
    try {
      expect(second.target.baseUrl).not.toBe(first.target.baseUrl);
      expect(await second.client.listRoles()).toMatchObject([{ id, name: 'kept', description: 'across runs', content: 'body\n' }]);
    } finally {
      await second.close();
    }
  });

  it('is ignored by git in this repository too', async () => {
    expect((await readFile(join(repoRoot, '.gitignore'), 'utf8')).split('\n')).toContain('.roleflow/');
  });

  it('keeps local.data and local.flows_config relative to the config file', async () => {
    await mkdir(join(dir, 'conf'));
    await writeFile(join(dir, 'conf', 'roleflow.config.yaml'), 'local:\n  data: state/tenant.json\n  flows_config: flows.yaml\n');
    await writeFile(join(dir, 'conf', 'flows.yaml'), 'flows:\n  only-here:\n    steps: [{ service: s }]\n    outputs: { results: [] }\n');
    const config = await loadConfig(dir, 'conf/roleflow.config.yaml');
    const tenant = await openTenant({ config, flags: {}, env: {}, cwd: dir });
    try {
      await tenant.client.createRole({ name: 'n', description: '', content: '' });
      expect(await tenant.client.startFlow('only-here', {})).toMatchObject({ executionId: expect.any(String) });
    } finally {
      await tenant.close();
    }
    expect(existsSync(join(dir, 'conf', 'state', 'tenant.json'))).toBe(true);
    expect(existsSync(join(dir, 'conf', 'state', '.gitignore'))).toBe(false);
    expect(existsSync(join(dir, '.roleflow'))).toBe(false);
  });

  it('says which tenants exist when asked for an unknown one', async () => {
    const error = await rejection(openTenant({ config: defaultConfig(), flags: { tenant: 'prod' }, env: {}, cwd: dir }));
    expect(error.message).toBe('unknown tenant "prod"; known: local');
  });
});

describe('a configured tenant', () => {
  const TOKEN = 'distinctive-T0ken-3b7f19';

  it('reports each request for --verbose (method, path, status, duration) and never the token', async () => {
    const emulator = await startEmulator({ token: TOKEN });
    const config = defaultConfig();
    config.tenants['stage'] = { baseUrl: emulator.baseUrl, wsUrl: emulator.wsUrl, tokenEnv: 'STAGE_TOKEN', wsAuth: 'query', timeoutMs: 2000, retries: 0, api: {} };
    const lines: VerboseLine[] = [];
    const tenant = await openTenant({ config, flags: { tenant: 'stage' }, env: { STAGE_TOKEN: TOKEN }, cwd: '/', onRequest: (l) => lines.push(l) });
    try {
      expect(tenant.secrets).toEqual([TOKEN]);
      const { id } = await tenant.client.createRole({ name: 'v', description: '', content: '' });
      await tenant.client.listRoles();
      expect(await tenant.client.getRole(TOKEN)).toBeUndefined();
      await tenant.client.deleteRole(id);
      (await tenant.client.openWs()).close();
    } finally {
      await tenant.close();
      await emulator.close();
    }
    expect(lines.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'POST /admin/roles/create 200',
      'GET /admin/roles/get 200',
      'GET /admin/roles/get?id=*** 404',
      'POST /admin/policies/delete 200',
      'GET /ws?token=*** 101',
    ]);
    for (const line of lines) expect(line).toMatchObject({ ms: expect.any(Number), attempt: 1 });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('needs its token from the environment and says which variable, without opening anything', async () => {
    const config = defaultConfig();
    config.tenants['stage'] = { baseUrl: 'https://tenant.example.invalid', tokenEnv: 'STAGE_TOKEN', wsAuth: 'header', timeoutMs: 2000, retries: 0, api: {} };
    const error = await rejection(openTenant({ config, flags: { tenant: 'stage' }, env: { ROLEFLOW_TOKEN: TOKEN }, cwd: '/' }));
    expect(error.message).toBe('tenant "stage": no token; set the environment variable STAGE_TOKEN');
    expect(everyText(error)).not.toContain(TOKEN);
  });
});
