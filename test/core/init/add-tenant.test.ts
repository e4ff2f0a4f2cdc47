import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { addTenantToConfig } from '../../../src/core/init/add-tenant.js';

const production = { name: 'production', baseUrl: 'https://example.invalid/t/prod' };

describe('addTenantToConfig', () => {
  test('adds the tenant under tenants:, keeping every comment and key as it was', () => {
    const text = [
      '# yaml-language-server: $schema=./node_modules/roleflow/schemas/config.schema.json',
      'default_tenant: staging   # where plan goes without --tenant',
      'tenants:',
      '  staging:',
      '    base_url: "https://example.invalid/t/staging"',
      '    token_env: ROLEFLOW_TOKEN_STAGING   # never the token itself',
      'roles:',
      '  prune: false          # true: delete tenant Roles that have no file',
      '',
    ].join('\n');
    const r = addTenantToConfig(text, { ...production, wsUrl: 'wss://example.invalid/t/prod/ws' });
    expect(r.added).toBe(true);
    const out = r.added ? r.text : '';
    for (const line of text.split('\n').filter((l) => l !== '')) expect(out).toContain(line);
    expect(parse(out)).toEqual({
      default_tenant: 'staging',
      tenants: {
        staging: { base_url: 'https://example.invalid/t/staging', token_env: 'ROLEFLOW_TOKEN_STAGING' },
        production: { base_url: 'https://example.invalid/t/prod', ws_url: 'wss://example.invalid/t/prod/ws', token_env: 'ROLEFLOW_TOKEN_PRODUCTION' },
      },
      roles: { prune: false },
    });
  });

  test('keeps every byte of the file: only the tenant\'s lines are new, after the last tenant', () => {
    const lines = ['production:', '  base_url: https://example.invalid/t/prod', '  token_env: ROLEFLOW_TOKEN_PRODUCTION'];
    const cases: [string, string][] = [
      ['tenants:\n    staging:   # four spaces\n        base_url: "https://s.invalid"\n\n# roles next\nroles: { prune: true }\n', '    '],
      ['roles: {}\ntenants:\n  staging:\n    base_url: https://s.invalid', '  '],
      ['tenants:\r\n  staging:\r\n    base_url: https://s.invalid\r\nflows: { dir: f }\r\n', '  '],
    ];
    for (const [text, indent] of cases) {
      const r = addTenantToConfig(text, production);
      const out = r.added ? r.text : '';
      const newline = text.includes('\r\n') ? '\r\n' : '\n';
      const added = lines.map((l) => `${indent}${l}${newline}`).join('');
      expect(out.replace(added, '').replace(/\n$/, '')).toBe(text.replace(/\n$/, ''));
      expect(parse(out).tenants.production.token_env).toBe('ROLEFLOW_TOKEN_PRODUCTION');
    }
  });

  test('makes tenants: when the config has none, or an empty one', () => {
    for (const text of ['default_tenant: local\nflows: { dir: flows }\n', 'tenants:\n', '']) {
      const r = addTenantToConfig(text, production);
      expect(r.added && parse(r.text).tenants).toEqual({ production: { base_url: 'https://example.invalid/t/prod', token_env: 'ROLEFLOW_TOKEN_PRODUCTION' } });
    }
  });

  test('leaves alone a config that has the tenant, or that it cannot edit, saying why', () => {
    expect(addTenantToConfig('tenants:\n  production: { base_url: "https://x.invalid" }\n', production)).toEqual({
      added: false,
      present: true,
      reason: 'it already has tenant "production"',
    });
    expect(addTenantToConfig('- a list\n', production)).toEqual({ added: false, present: false, reason: 'not a YAML mapping' });
    expect(addTenantToConfig('tenants: [a]\n', production)).toEqual({ added: false, present: false, reason: 'its tenants: is not a mapping' });
    const broken = addTenantToConfig('tenants: {\n', production);
    expect(broken.added === false && broken.reason).toMatch(/^not valid YAML \(/);
  });
});
