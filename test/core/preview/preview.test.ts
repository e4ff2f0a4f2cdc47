import { describe, expect, it } from 'vitest';
import { comparePreview, previewDocument, renderPreviewMarkdown, renderPreviewText, rolesDiffer, type PreviewDocument } from '../../../src/core/preview/index.js';
import type { RunReport } from '../../../src/report/model.js';
import { renderPreviewHtml } from '../../../src/report/html/preview.js';
import { https, result, runReport, step, wsWith } from '../../report/builders.js';

const REPLY = '  - name: replies\n    expect:\n      outputs:\n        - { path: "results[0].reply", contains: "refund" }\n';
const OTHER = '  - name: other\n    expect:\n      outputs:\n        - { path: "results[0].ok", equals: true }\n';
const STEPS = '  - name: logs steps\n    expect:\n      steps: { count: 2 }\n';

function sides(base: RunReport, head: RunReport): PreviewDocument {
  const fields = { tenant: 'preview', base: { ref: 'main', commit: 'a'.repeat(40) }, head: { commit: 'b'.repeat(40), dirty: false }, contaminated: false, contamination: [], executions: 6 };
  return previewDocument(fields, comparePreview(base, head, 0.2));
}

describe('the behaviour diff', () => {
  const base = runReport([result(REPLY, [wsWith({ results: [{ reply: 'We will refund you.' }] })]), result(OTHER, [wsWith({ results: [{ ok: true }] })])]);
  const head = runReport([result(REPLY, [wsWith({ results: [{ reply: 'Sorry, no.' }] })]), result(OTHER, [wsWith({ results: [{ ok: true }] })])]);

  it('shows a test whose verdict went from passed to failed with the diff of its outputs, and one using no changed Role as unchanged', () => {
    const doc = sides(base, head);
    expect(doc.summary).toMatchObject({ tests: 2, regressions: 1, verdict_changed: 1, outputs_changed: 1, unchanged: 1 });
    const [changed, same] = doc.tests;
    expect(changed).toMatchObject({ name: 'replies', transport: 'ws', base: { verdict: 'passed' }, head: { verdict: 'failed' }, outputs_changed: true });
    expect(changed!.outputs_diff).toContain('-      "reply": "We will refund you."\n+      "reply": "Sorry, no."');
    expect(same).toMatchObject({ name: 'other', base: { verdict: 'passed' }, head: { verdict: 'passed' }, outputs_changed: false });
    expect(same!.outputs_diff).toBeUndefined();
  });

  it('compares outputs whatever order their keys came in', () => {
    const a = runReport([result(OTHER, [wsWith({ results: [{ ok: true, b: 1, a: 2 }] })])]);
    const b = runReport([result(OTHER, [wsWith({ results: [{ a: 2, ok: true, b: 1 }] })])]);
    expect(sides(a, b).tests[0]!.outputs_changed).toBe(false);
  });

  it('shows an HTTPS test whose step sequence changed', () => {
    const two = runReport([result(STEPS, [https({ steps: [step('retriever'), { ...step('llm'), count: 2 }] })])]);
    const other = runReport([result(STEPS, [https({ steps: [step('retriever'), { ...step('guard'), count: 2 }] })])]);
    const t = sides(two, other).tests[0]!;
    expect(t).toMatchObject({ steps_changed: true, base_steps: ['retriever', 'llm'], head_steps: ['retriever', 'guard'], outputs_changed: false });
  });

  it('lists tests only one side has', () => {
    const doc = sides(runReport([result(OTHER, [wsWith({ results: [{ ok: true }] })])]), base);
    expect(doc.tests.map((t) => [t.name, t.base?.verdict ?? null, t.head?.verdict ?? null])).toEqual([
      ['replies', null, 'passed'],
      ['other', 'passed', 'passed'],
    ]);
  });

  it('renders text with the regression first, its diff and the unchanged count', () => {
    const text = renderPreviewText(sides(base, head));
    expect(text).toContain('base  main (aaaaaaaaaaaa)\nhead  work tree at bbbbbbbbbbbb\n');
    expect(text).toMatch(/REGRESSION flows\/t\.yaml:3  flows\/t\.yaml > replies \[ws\]  passed → failed\n  head: results\[0\]\.reply: .*refund/);
    expect(text).toContain('+      "reply": "Sorry, no."');
    expect(text).toContain('1 test unchanged.');
  });

  it('renders markdown within the comment budget: regressions first, details cut and said so when they do not fit', () => {
    const md = renderPreviewMarkdown(sides(base, head), { marker: 'roleflow:preview:preview' });
    expect(md.startsWith('<!-- roleflow:preview:preview -->\n### Behaviour diff')).toBe(true);
    expect(md).toContain('| 🔴 |');
    expect(md).toContain('```diff');
    const many = runReport(Array.from({ length: 40 }, (_, i) => result(REPLY.replace('replies', `replies ${i}`), [wsWith({ results: [{ reply: `We will refund you ${'x'.repeat(300)}` }] })])));
    const worse = runReport(Array.from({ length: 40 }, (_, i) => result(REPLY.replace('replies', `replies ${i}`), [wsWith({ results: [{ reply: `No ${'y'.repeat(300)}` }] })])));
    const cut = renderPreviewMarkdown(sides(many, worse), { maxChars: 6000 });
    expect(cut.length).toBeLessThanOrEqual(6000);
    expect(cut).toMatch(/details not shown to fit the comment|more changed tests not shown/);
  });

  it('escapes what the tenant sent in the HTML page and shows both sides', () => {
    const evil = runReport([result(REPLY, [wsWith({ results: [{ reply: '<script>alert(1)</script>' }] })])]);
    const html = renderPreviewHtml(sides(base, evil), { base, head: evil });
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<h4>Base: <span class="pass">passed</span></h4>');
    expect(html).toContain('<h4>Head: <span class="fail">failed</span></h4>');
  });

  it('shows each side\'s outputs in lines in the HTML page, not one line of \\n', () => {
    const html = renderPreviewHtml(sides(base, head), { base, head });
    const outputs = [...html.matchAll(/<pre class="outputs">([^]*?)<\/pre>/g)].map((m) => m[1]!);
    expect(outputs).toHaveLength(2);
    for (const text of outputs) {
      expect(text).not.toContain('\\n');
      expect(text.split('\n').length).toBeGreaterThan(3);
    }
    expect(outputs[1]).toContain('\n      &quot;reply&quot;: &quot;Sorry, no.&quot;\n');
  });

  it('labels every cell of the tests table, which a phone shows stacked, a row per label', () => {
    const html = renderPreviewHtml(sides(base, head), { base, head });
    const rows = [...html.matchAll(/<tr data-verdict-changed[^>]*>([^]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*data-label="([a-z]+)"/g)].map((l) => l[1]));
    expect(rows).toEqual([
      ['test', 'transport', 'base', 'head', 'changed'],
      ['test', 'transport', 'base', 'head', 'changed'],
    ]);
    expect(html).toMatch(/@media \(max-width:640px\)\{[^]*#tests td\[data-label\]::before\{content:attr\(data-label\)/);
  });
});

describe('rolesDiffer', () => {
  const a = { id: '1', name: 'a', description: 'd', content: 'c' };
  it('names each Role made, deleted or changed; a touched last_updated alone is no change', () => {
    expect(rolesDiffer([a], [{ ...a, lastUpdated: 'now' }])).toEqual([]);
    expect(rolesDiffer([a], [{ ...a, content: 'x' }, { id: '2', name: 'b', description: '', content: '' }])).toEqual(['Role "a" changed (content)', 'Role "b" was created']);
    expect(rolesDiffer([a], [])).toEqual(['Role "a" was deleted']);
  });
});
