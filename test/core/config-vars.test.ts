import { describe, expect, it } from 'vitest';
import { parseConfig, tenantVars } from '../../src/core/config/config.js';
import { formatIssue } from '../../src/core/errors.js';
import { loadSchema } from '../../src/files/package-root.js';

const parse = (text: string) => parseConfig(text, 'roleflow.config.yaml', loadSchema('config'));
const problems = (text: string) => {
  const r = parse(text);
  return r.ok ? [] : r.issues.map(formatIssue);
};

describe('vars in roleflow.config.yaml', () => {
  it("gives each tenant the top-level vars, its own winning; others (local) get the top-level ones", () => {
    const r = parse(['vars: { product: Acme, region: eu }', 'tenants:', '  production:', '    base_url: https://x.invalid', '    vars: { product: Acme Cloud }'].join('\n'));
    if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
    expect(Object.fromEntries(tenantVars(r.value, 'production'))).toEqual({ product: 'Acme Cloud', region: 'eu' });
    expect(Object.fromEntries(tenantVars(r.value, 'local'))).toEqual({ product: 'Acme', region: 'eu' });
    expect(tenantVars(r.value, 'constructor').get('constructor')).toBeUndefined();
  });

  it('values are strings and names are identifiers, as located errors', () => {
    expect(problems('vars:\n  retries: 3\n')).toEqual(['roleflow.config.yaml:2:12: vars.retries: must be string, got number']);
    expect(problems('vars:\n  support-email: x\n')).toEqual([
      'roleflow.config.yaml:2:18: vars: "support-email" is not a variable name: letters, digits and _, not starting with a digit',
    ]);
    expect(problems('tenants:\n  p:\n    base_url: https://x.invalid\n    vars: { a/b: x }\n')).toEqual([
      'roleflow.config.yaml:4:18: tenants.p.vars: "a/b" is not a variable name: letters, digits and _, not starting with a digit',
    ]);
    expect(problems('tenants:\n  p:\n    base_url: https://x.invalid\n    vars: { on: true }\n')[0]).toMatch(/^roleflow\.config\.yaml:4:\d+: tenants\.p\.vars\.on: must be string, got boolean/);
  });
});
