import { describe, expect, test } from 'vitest';
import type { Role } from '../../../src/core/model.js';
import { type RoleFile } from '../../../src/core/roles/index.js';
import { renderPlanMarkdown } from '../../../src/core/plan/index.js';
import { file, plan, role } from '../roles/builders.js';

const LIMIT = 65_536;

/** `n` Roles whose content each file changes in `changedLines` of `lines` lines. */
function updates(n: number, lines: number, changedLines: number): { files: RoleFile[]; remote: Role[] } {
  const files: RoleFile[] = [];
  const remote: Role[] = [];
  for (let i = 0; i < n; i++) {
    const name = `role-${String(i).padStart(5, '0')}`;
    const before = Array.from({ length: lines }, (_, l) => `line ${l} of ${name}`);
    const after = before.map((l, k) => (k < changedLines ? `${l} (edited)` : l));
    remote.push(role(name, { content: before.join('\n') }));
    files.push(file(name, { content: after.join('\n') }));
  }
  return { files, remote };
}

describe('renderPlanMarkdown', () => {
  test('a small plan: marker, summary, table and each full diff folded in a diff fence', () => {
    const { files, remote } = updates(2, 5, 1);
    const md = renderPlanMarkdown(plan([...files, file('added')], remote), { marker: 'roleflow-plan' });
    expect(md.startsWith('<!-- roleflow-plan -->\n### roleflow plan for <code>local</code>\n\n**Plan: 1 to create, 2 to update, 0 to delete.**\n')).toBe(true);
    expect(md).toContain('| ✏️ update | <code>role-00000</code> | <code>roles/role-00000.md</code> | content |');
    expect(md).toContain('| ➕ create | <code>added</code> | <code>roles/added.md</code> | new Role<br>description: <code>added role</code><br>content: <code>You are added.</code> |');
    expect(md).toContain('<details><summary>✏️ <code>role-00001</code>: content diff</summary>\n\n```diff\n--- role-00001 (tenant)\n');
    expect(md).toContain('-line 0 of role-00001\n+line 0 of role-00001 (edited)\n');
    expect(md).not.toContain('[!WARNING]');
    expect(md).not.toMatch(/cut|not shown/);
  });

  test('deletes raise a warning banner naming them', () => {
    const md = renderPlanMarkdown(plan([], [role('legacy')], { prune: true }));
    expect(md).toContain('> [!WARNING]\n> This plan **deletes 1 Role** from the tenant: <code>legacy</code>\n');
    expect(md).toContain('| 🗑️ delete | <code>legacy</code> | id <code>id-legacy</code> | **deleted** |');
  });

  test('backticks in content cannot close the diff fence', () => {
    const md = renderPlanMarkdown(plan([file('a', { content: '```\n`````\nx' })], [role('a')]));
    expect(md).toContain('\n``````diff\n');
    expect(md).toContain('\n``````\n\n</details>');
  });

  test('names cannot break the table or inject markup', () => {
    const md = renderPlanMarkdown(plan([file('a|b <img src=x> `c` [l](u)')], []));
    const row = md.split('\n').find((l) => l.startsWith('| ➕ create'))!;
    expect(row.split('|').length).toBe(6);
    expect(row).not.toMatch(/<img|`|\[l\]/);
  });

  test('when full diffs do not fit, diffs are shortened and that is said', () => {
    const { files, remote } = updates(40, 120, 120);
    const md = renderPlanMarkdown(plan(files, remote));
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    expect(md).toMatch(/_Diffs are cut to \d+ lines each to fit the comment; run `roleflow plan --tenant local` for the full plan._/);
    expect(md).toMatch(/… [\d,]+ more diff lines not shown/);
    expect(md.match(/<details>/g)).toHaveLength(40);
  });

  test('when even short diffs do not fit, the largest are left out one Role at a time, said at the top', () => {
    const { files, remote } = updates(600, 20, 20);
    // Role 7's content changes in 2 lines only: its diff is among the smallest and is kept.
    remote[7] = role('role-00007', { content: 'a\nb' });
    files[7] = file('role-00007', { content: 'a\nc' });
    const md = renderPlanMarkdown(plan(files, remote));
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    const shown = (md.match(/<details>/g) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(600);
    expect(md).toContain('<code>role-00007</code>: content diff');
    const note = `_Diffs are cut to 6 lines each, and the ${600 - shown} largest content diffs are not shown, to fit the comment; run \`roleflow plan --tenant local\` for the full plan._`;
    expect(md.indexOf(note)).toBeGreaterThan(0);
    expect(md.indexOf(note)).toBeLessThan(md.indexOf('| |'));
    expect(md).toContain('role-00599');
  });

  test('when not one diff fits beside the table, the table stands alone and says so at the top', () => {
    const { files, remote } = updates(1500, 20, 20);
    const md = renderPlanMarkdown(plan(files, remote));
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    expect(md).not.toContain('<details>');
    const note = '_1,500 content diffs not shown to fit the comment; run `roleflow plan --tenant local` for the full plan._';
    expect(md.indexOf(note)).toBeGreaterThan(0);
    expect(md.indexOf(note)).toBeLessThan(md.indexOf('| |'));
  });

  test('5,000 changed Roles fit within 65,536 characters, saying how many rows were cut', () => {
    const { files, remote } = updates(5000, 3, 1);
    const md = renderPlanMarkdown(plan(files, remote), { marker: 'roleflow-plan' });
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    expect(md.length).toBeGreaterThan(LIMIT - 500);
    const shown = md.split('\n').filter((l) => l.startsWith('| ✏️ update')).length;
    expect(shown).toBeGreaterThan(100);
    expect(md).toContain(`\n… ${(5000 - shown).toLocaleString('en-US')} more changes not shown; run \`roleflow plan --tenant local\` for the full plan.\n`);
    expect(md).toContain('_5,000 content diffs not shown');
  });

  test('on a plan too large for its table, deletes come first and every deleted Role is named', () => {
    const { files, remote } = updates(5000, 3, 1);
    const gone = Array.from({ length: 100 }, (_, i) => role(`zz-retired-${String(i).padStart(3, '0')}`));
    const md = renderPlanMarkdown(plan(files, [...remote, ...gone], { prune: true }));
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    expect(md).toMatch(/… [\d,]+ more changes not shown/);
    const warning = md.split('\n').find((l) => l.startsWith('> This plan **deletes 100 Roles**'))!;
    for (const r of gone) expect(warning).toContain(`<code>${r.name}</code>`);
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| |'));
    expect(rows.slice(0, 100).every((l) => l.startsWith('| 🗑️ delete'))).toBe(true);
    expect(rows[100]).toMatch(/^\| ✏️ update/);
  });

  test('deleted names beyond half the comment are counted and point to the full plan', () => {
    const gone = Array.from({ length: 400 }, (_, i) => role(`retired-${i}`));
    const md = renderPlanMarkdown(plan([], gone, { prune: true }), { maxChars: 4000 });
    expect(md.length).toBeLessThanOrEqual(4000);
    expect(md).toContain('<code>retired-0</code>, <code>retired-1</code>');
    expect(md).toMatch(/<code>retired-\d+<\/code>, … and [\d,]+ more; run `roleflow plan --tenant local` for the full plan/);
  });

  test("a rewrite's shortened diff shows how both sides start", () => {
    const n = 200;
    const remote = Array.from({ length: 60 }, (_, i) => role(`r${i}`, { content: Array.from({ length: n }, (_, l) => `old ${l}`).join('\n') }));
    const files = remote.map((r) => file(r.name, { content: Array.from({ length: n }, (_, l) => `new ${l}`).join('\n') }));
    const md = renderPlanMarkdown(plan(files, remote));
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    expect(md).toMatch(/_Diffs are cut to \d+ lines each/);
    const diff = md.slice(md.indexOf('<code>r0</code>: content diff'), md.indexOf('</details>'));
    expect(diff).toContain('\n-old 0\n');
    expect(diff).toContain('\n+new 0\n');
    expect(diff).toMatch(/… [\d,]+ more diff lines not shown/);
  });

  test('a tiny limit is still honoured, and says it cut', () => {
    const { files, remote } = updates(50, 3, 1);
    const md = renderPlanMarkdown(plan(files, remote, { prune: true }), { maxChars: 300 });
    expect(md.length).toBeLessThanOrEqual(300);
    expect(md).toContain('run `roleflow plan --tenant local` for the full plan');
  });

  test('long lists of unmanaged Roles are cut with a count', () => {
    const remote = Array.from({ length: 30 }, (_, i) => role(`u${i}`));
    const md = renderPlanMarkdown(plan([], remote));
    expect(md).toContain('**30 unmanaged** (on the tenant, no role file; `--prune` would delete them)');
    expect(md).toContain('… 10 more');
    expect(md).toContain('**No changes. The tenant matches roles/.**');
  });
});
