import { describe, expect, test } from 'vitest';
import { renderPlanJson, renderPlanText, type Plan } from '../../../src/core/plan/index.js';
import { thousands } from '../../../src/core/roles/display.js';
import { file, plan, role } from '../roles/builders.js';

const sample = (): Plan =>
  plan(
    [file('x', { id: 'r1', description: 'new desc', content: 'line 1\nline 2 changed\nline 3' }), file('add')],
    [role('old', { id: 'r1', content: 'line 1\nline 2\nline 3' }), role('gone')],
    { prune: true },
  );

describe('renderPlanText', () => {
  test('Terraform-like lines per Role, field changes, a content diff and the summary line', () => {
    const lines = renderPlanText(sample(), { color: false }).split('\n');
    expect(lines).toContain('  ~ update x (roles/x.md, id r1)');
    expect(lines).toContain('      name: "old" → "x"');
    expect(lines).toContain('      description: "old role" → "new desc"');
    expect(lines).toContain('        -line 2');
    expect(lines).toContain('        +line 2 changed');
    expect(lines).toContain('  + create add (roles/add.md)');
    expect(lines).toContain('  - delete gone (id id-gone)');
    expect(lines.at(-2)).toBe('Plan: 1 to create, 1 to update, 1 to delete.');
    expect(lines.indexOf('  ~ update x (roles/x.md, id r1)')).toBeLessThan(lines.indexOf('  + create add (roles/add.md)'));
  });

  test('no colour codes unless asked; with colour, diff lines are coloured', () => {
    expect(renderPlanText(sample(), { color: false })).not.toContain('\x1b[');
    const coloured = renderPlanText(sample(), { color: true });
    expect(coloured).toContain('\x1b[31m-line 2\x1b[0m');
    expect(coloured).toContain('\x1b[32m+line 2 changed\x1b[0m');
    expect(coloured).toContain('\x1b[33m  ~ update x (roles/x.md, id r1)\x1b[0m');
  });

  test('an empty plan says the tenant matches, and lists unmanaged Roles with a --prune hint', () => {
    const text = renderPlanText(plan([file('a')], [role('a'), role('legacy')]), { color: false });
    expect(text).toContain('Unmanaged: 1 Role on the tenant without a role file (left alone; --prune deletes such Roles):\n  legacy (id id-legacy)\n');
    expect(text.endsWith('No changes. The tenant matches roles/.\n')).toBe(true);
  });

  test('notes, guards and file problems are shown', () => {
    const p = plan([file('new', { content: 'same', description: 'd' }), file('bad', { id: 'nope' })], [role('admin-old', { content: 'same', description: 'd' })], {
      prune: true,
      protect: ['admin-*'],
    });
    const text = renderPlanText(p, { color: false });
    expect(text).toContain('Notes:\n  - "admin-old" (id id-admin-old) and "new" (roles/new.md) have the same description and content');
    expect(text).toContain('Refused by guards (nothing will be applied):\n  ✗ Role "admin-old" is protected (protect: "admin-*"): refusing to delete it\n');
    expect(text).toContain('Problems in the role files:\n  roles/bad.md:4:1: id "nope" not found on tenant local');
  });

  test('control characters from the tenant never reach the terminal raw', () => {
    const p = plan([], [role('evil\x1b[2J\rname', { id: 'i\x07d', content: 'a\x1b]0;title\x07' })], { prune: true });
    const text = renderPlanText(p, { color: false });
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(text).toContain('  - delete "evil\\u001b[2J\\rname" (id "i\\u0007d")');
  });

  test('long unmanaged lists are cut with a count', () => {
    const remote = Array.from({ length: 60 }, (_, i) => role(`r${String(i).padStart(2, '0')}`));
    const text = renderPlanText(plan([], remote), { color: false });
    expect(text).toContain('  r49 (id id-r49)\n  … and 10 more (see plan --json)\n');
    expect(text).not.toContain('r50 (id');
  });
});

describe('counts in the text', () => {
  test('content lines are counted as lines of text, with thousands separators', () => {
    const big = Array.from({ length: 1234 }, (_, i) => `line ${i}`).join('\n');
    const text = renderPlanText(plan([file('a', { content: big }), file('b', { content: '' }), file('c', { content: '\n' })], []), { color: false });
    expect(text).toContain('  + create a (roles/a.md)\n      description: "a role"\n      content: 1,234 lines\n');
    expect(text).toContain('  + create b (roles/b.md)\n      description: "b role"\n      content: 0 lines\n');
    expect(text).toContain('  + create c (roles/c.md)\n      description: "c role"\n      content: 2 lines\n');
  });

  test('thousands writes whole numbers as toLocaleString("en-US") does', () => {
    for (const n of [0, 1, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, Number.MAX_SAFE_INTEGER, -1234, 1.5]) {
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

describe('renderPlanJson', () => {
  test('keys come in a fixed order, whatever order the plan object has', () => {
    const p = sample();
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reverseKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)])) : v;
    const reversed = reverseKeys(p) as Plan;
    expect(Object.keys(reversed)[0]).toBe('issues');
    expect(renderPlanJson(reversed)).toBe(renderPlanJson(p));
    expect(renderPlanJson(p)).toMatch(/^\{\n  "format_version": 1,\n  "tenant": \{\n    "name": "local",\n    "base_url": /);
  });

  test('round-trips: the parsed JSON renders to the same text', () => {
    const text = renderPlanJson(sample());
    expect(renderPlanJson(JSON.parse(text) as Plan)).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
  });
});
