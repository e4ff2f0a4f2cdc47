import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Plan, TenantPlanError } from '../../../src/core/plan/index.js';
import { renderPlanMarkdown, renderPlanText, renderTenantPlansMarkdown, renderTenantPlansText, shareRoom } from '../../../src/core/plan/index.js';
import { file, plan, role } from '../roles/builders.js';

const LIMIT = 65_536;

/** A tenant's plan: `n` updates of `lines`-line Roles, every line changed. */
function tenantPlan(name: string, n: number, lines: number): Plan {
  const files = [];
  const remote = [];
  for (let i = 0; i < n; i++) {
    const before = Array.from({ length: lines }, (_, l) => `line ${l} of ${name} role ${i}`);
    remote.push(role(`role-${i}`, { content: before.join('\n') }));
    files.push(file(`role-${i}`, { content: before.map((l) => `${l} (edited)`).join('\n') }));
  }
  return plan(files, remote, { tenant: { name, baseUrl: `https://${name}.example` } });
}

describe('renderTenantPlansMarkdown', () => {
  test('small plans are shown whole: the table, then each tenant as plan shows it alone', () => {
    const plans = [tenantPlan('staging', 1, 3), tenantPlan('production', 0, 0)];
    const md = renderTenantPlansMarkdown(plans, { marker: 'roleflow-plan' });
    expect(md.startsWith('<!-- roleflow-plan -->\n## roleflow plan for 2 tenants\n\n**1 with changes.**\n\n| Tenant | Create | Update | Delete | Guards |\n')).toBe(true);
    expect(md).toContain(renderPlanMarkdown(plans[0]!));
    expect(md.endsWith(renderPlanMarkdown(plans[1]!))).toBe(true);
  });

  test('one huge plan among small ones: the small ones stay whole, the huge one is cut, the comment fits', () => {
    const plans = [tenantPlan('a', 1, 2), tenantPlan('huge', 300, 40), tenantPlan('c', 2, 2)];
    const md = renderTenantPlansMarkdown(plans);
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    expect(md).toContain(renderPlanMarkdown(plans[0]!));
    expect(md).toContain(renderPlanMarkdown(plans[2]!));
    expect(md).toContain('to fit the comment');
  });

  test('whatever the tenants and their plans, the comment fits the limit', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(60), fc.nat(30)), { minLength: 2, maxLength: 8 }), fc.integer({ min: 2_000, max: LIMIT }), (sizes, max) => {
        const plans = sizes.map(([n, lines], i) => tenantPlan(`tenant-${i}`, n, lines));
        expect(renderTenantPlansMarkdown(plans, { maxChars: max }).length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 40 },
    );
  });

  test('the room is shared: small needs are met, the rest split evenly, never more than the room', () => {
    expect(shareRoom([10, 1000, 20], 600)).toEqual([10, 570, 20]);
    expect(shareRoom([500, 500], 600)).toEqual([300, 300]);
    fc.assert(fc.property(fc.array(fc.nat(10_000)), fc.nat(50_000), (needs, room) => {
      const shares = shareRoom(needs, room);
      expect(shares.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(room);
      shares.forEach((s, i) => expect(s).toBeLessThanOrEqual(needs[i]!));
    }));
  });
});

describe('a tenant that could not be planned', () => {
  const failed: TenantPlanError = {
    tenant: { name: 'production', base_url: 'https://production.example' },
    error: { code: 'unreachable', message: 'cannot reach https://production.example: ECONNREFUSED\n<b>|x|</b>' },
  };

  test('text: its section and its summary line say why; the other tenant is shown whole; "1 tenant" for one', () => {
    const staging = tenantPlan('staging', 1, 2);
    const text = renderTenantPlansText([staging, failed], { color: false });
    expect(text).toContain(`=== tenant staging ===\n${renderPlanText(staging, { color: false })}`);
    expect(text).toContain('=== tenant production ===\nNot planned: cannot reach https://production.example: ECONNREFUSED\\n<b>|x|</b>\n');
    expect(text).toMatch(/2 tenants:\n  staging     Plan: 0 to create, 1 to update, 0 to delete\.\n  production  Not planned: cannot reach /);
    expect(renderTenantPlansText([staging], { color: false })).toContain('\n1 tenant:\n');
  });

  test('markdown: its row and section say why, its text cannot break the table or inject HTML', () => {
    const md = renderTenantPlansMarkdown([tenantPlan('staging', 1, 2), failed]);
    expect(md).toContain('**1 with changes, 1 not planned.**');
    const row = md.split('\n').find((line) => line.startsWith('| <code>production</code>'))!;
    expect(row.split(/(?<!&#\d*)\|/).length).toBe(7);
    expect(row).not.toContain('<b>');
    expect(md).toContain('### roleflow plan for <code>production</code>\n\n> [!CAUTION]\n> Not planned: cannot reach');
  });
});
