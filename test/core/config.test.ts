import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config/config.js';
import { formatIssue } from '../../src/core/errors.js';
import { loadSchema } from '../../src/files/package-root.js';

const schema = loadSchema('config');
const parse = (text: string) => parseConfig(text, 'roleflow.config.yaml', schema);
const problems = (text: string) => {
  const r = parse(text);
  if (r.ok) throw new Error('expected problems');
  return r.issues.map(formatIssue);
};

describe('roleflow.config.yaml', () => {
  it('an invalid tenant name is one error, at that key, naming it and the rule', () => {
    expect(problems('tenants:\n  staging: { base_url: "https://example.invalid" }\n  "bad name":\n    base_url: https://example.invalid\n  -x: {}\n')).toEqual([
      'roleflow.config.yaml:3:3: tenants: "bad name" is not a valid name: letters, digits, _, . and -, starting with a letter or digit',
      'roleflow.config.yaml:5:3: tenants: "-x" is not a valid name: letters, digits, _, . and -, starting with a letter or digit',
      'roleflow.config.yaml:5:7: tenants.-x: missing required key "base_url"',
    ]);
  });

  it('fills defaults for an empty file', () => {
    const r = parse('');
    expect(r.ok && r.value.roles).toEqual({ dir: 'roles', prune: false, protect: [], ignore: [], concurrency: 4 });
    expect(r.ok && r.value.flows).toEqual({ dir: 'flows', concurrency: 4, strictEnd: false });
  });

  it('reads limits in bytes or with a unit, defaulting each one, and refuses what is not a size at its value', () => {
    expect(parse('').ok && (parse('') as { value: { limits: unknown } }).value.limits).toEqual({ maxResponseBytes: 64 * 1024 * 1024, maxMessages: 100_000, maxExecutionBytes: 64 * 1024 * 1024 });
    const r = parse('limits: { max_response_bytes: 1.5MiB, max_messages: 500, max_execution_bytes: 4096 }\n');
    expect(r.ok && r.value.limits).toEqual({ maxResponseBytes: 1572864, maxMessages: 500, maxExecutionBytes: 4096 });
    expect(problems('limits:\n  max_response_bytes: 0MiB\n')).toEqual([
      'roleflow.config.yaml:2:23: limits.max_response_bytes: "0MiB" is not a size: write bytes, or a number with KB, KiB, MB, MiB, GB or GiB, like 64MiB',
    ]);
    expect(problems('limits: { max_messages: 0 }\n')[0]).toMatch(/limits\.max_messages: must be >= 1/);
  });

  it('reads tenants with their defaults and durations', () => {
    const r = parse(
      [
        'default_tenant: staging',
        'tenants:',
        '  staging:',
        '    base_url: https://example.invalid/t/acme/',
        '    ws_url: wss://example.invalid/t/acme/ws',
        '    token_env: ROLEFLOW_TOKEN_STAGING',
        '    timeout: 2.5s',
        '    api: { create: /admin/role/create, delete: delete }',
        'roles: { dir: roles, protect: ["admin-*"], max_deletes: 10 }',
      ].join('\n'),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.defaultTenant).toBe('staging');
    expect(r.value.tenants['staging']).toEqual({
      baseUrl: 'https://example.invalid/t/acme',
      wsUrl: 'wss://example.invalid/t/acme/ws',
      tokenEnv: 'ROLEFLOW_TOKEN_STAGING',
      wsAuth: 'header',
      timeoutMs: 2500,
      retries: 4,
      api: { create: '/admin/role/create', delete: 'delete' },
    });
    expect(r.value.roles.maxDeletes).toBe(10);
  });

  it('names the file, line, column and key of an unknown key', () => {
    expect(problems('roles:\n  dir: roles\n  prnue: true\n')).toEqual([
      'roleflow.config.yaml:3:3: roles: unknown key "prnue" (did you mean "prune"?)',
    ]);
  });

  it('points at a value of the wrong type', () => {
    expect(problems('flows:\n  concurrency: lots\n')).toEqual(['roleflow.config.yaml:2:16: flows.concurrency: must be integer, got string']);
  });

  it('refuses a token in the config file by having no place for it', () => {
    expect(problems('tenants:\n  prod:\n    base_url: https://x.invalid\n    token: abc\n')[0]).toMatch(
      /^roleflow.config.yaml:4:5: tenants.prod: unknown key "token"/,
    );
  });

  it('rejects a default tenant that is not defined', () => {
    expect(problems('default_tenant: prod\n')).toEqual(['roleflow.config.yaml:1:17: default_tenant: no tenant named "prod" under tenants']);
  });

  it('refuses a zero timeout, which would end every request at once', () => {
    expect(problems('tenants:\n  prod:\n    base_url: https://x.invalid\n    timeout: 0s\n')).toEqual([
      'roleflow.config.yaml:4:14: tenants.prod.timeout: must be more than 0',
    ]);
  });

  it('reads durations as flow tests do (h, .5s), up to 24h', () => {
    const at = (timeout: string) => {
      const r = parse(`tenants:\n  prod:\n    base_url: https://x.invalid\n    timeout: ${timeout}\n`);
      return r.ok ? r.value.tenants['prod']?.timeoutMs : r.issues.map(formatIssue);
    };
    expect(at('1h')).toBe(3_600_000);
    expect(at('.5s')).toBe(500);
    expect(at('24h')).toBe(86_400_000);
    expect(at('1441m')).toEqual(['roleflow.config.yaml:4:14: tenants.prod.timeout: duration "1441m" is more than 24h, the longest roleflow accepts']);
  });

  it('refuses, in line order, every tenant URL the token may not go to and a default tenant that is an inherited name', () => {
    expect(
      problems(
        [
          'tenants:',
          '  a:',
          '    base_url: http://tenant.example.invalid',
          '    ws_url: ws://localhost:8787/ws',
          '  b:',
          '    base_url: "https://exa mple.invalid"',
          '    ws_url: wss://[::1]:8787/ws',
          '  c:',
          '    base_url: http://127.0.0.2:8787',
          '    ws_url: "ws://[::2]/ws"',
          'default_tenant: toString',
        ].join('\n'),
      ),
    ).toEqual([
      'roleflow.config.yaml:3:15: tenants.a.base_url: plain http:// would send the token unencrypted: it is only allowed to loopback (localhost, 127.0.0.1, ::1); use https://',
      'roleflow.config.yaml:6:15: tenants.b.base_url: not a valid URL',
      'roleflow.config.yaml:10:13: tenants.c.ws_url: plain ws:// would send the token unencrypted: it is only allowed to loopback (localhost, 127.0.0.1, ::1); use wss://',
      'roleflow.config.yaml:11:17: default_tenant: no tenant named "toString" under tenants',
    ]);
  });

  it('reports YAML syntax errors at their position', () => {
    const [first] = problems('roles:\n  dir: [unclosed\n');
    expect(first).toMatch(/^roleflow.config.yaml:\d+:\d+: /);
  });

  it('refuses prototype keys and alias bombs', () => {
    expect(problems('__proto__: { polluted: true }\n')[0]).toBe('roleflow.config.yaml:1:1: key "__proto__" is not allowed');
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'];
    expect(problems(bomb.join('\n'))[0]).toMatch(/^roleflow.config.yaml:1:1: YAML refused: /);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
