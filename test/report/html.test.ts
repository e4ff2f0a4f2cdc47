import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html/report.js';
import { makeRedactor } from '../../src/core/text/redact.js';
import { redactReport } from '../../src/report/run-report.js';
import { https, result, runReport, snapshotFailure, step, wsWith } from './builders.js';

const failing = (name: string, got: string) =>
  result(`  - name: ${JSON.stringify(name)}\n    expect:\n      outputs:\n        - { path: "results[0].summary", equals: refund }\n`, [wsWith({ results: [{ summary: got }] })]);

describe('HTML reporter', () => {
  it('escapes every text the tenant or the files gave: no tag, attribute or script of theirs gets through', () => {
    const html = renderHtml(runReport([failing('<img src=x onerror=alert(1)>', '</pre><script>alert(2)</script>"\'')]));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    fc.assert(
      fc.property(fc.string(), (text) => {
        const page = renderHtml(runReport([failing(`t ${text}`, text)]));
        // Exactly the page's own script element, and no raw control character.
        expect(page.match(/<script/g)).toHaveLength(1);
        expect(page).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
      }),
      { numRuns: 60 },
    );
  });

  it('names no resource outside the page: no src, href or url() to load, and a policy that forbids any request', () => {
    const steps = https({ steps: [step('retriever', 100), step('llm', 300)], wallMs: 450 });
    const html = renderHtml(runReport([result('  - name: t\n    repeat: 2\n', [steps, steps])]));
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).not.toMatch(/url\(|@import|https?:\/\//i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`);
  });

  it('draws one waterfall bar per logged step, unknown latencies included', () => {
    const unknown = { ...step('rerank', 0), latencyMs: Number.NaN };
    const html = renderHtml(runReport([result('  - name: t\n', [https({ steps: [step('retriever', 100), unknown, step('llm', 300)], wallMs: 450 })])]));
    const waterfall = /<div class="waterfall"[^]*?wf-axis/.exec(html)![0];
    expect(waterfall.match(/<span class="bar /g)).toHaveLength(3);
    expect(waterfall).toContain('rerank: latency unknown');
  });

  it('masks secrets as every report does (the report is redacted before it is rendered)', () => {
    const report = redactReport(runReport([failing('t', 'the token is s3cr3t-value')]), makeRedactor(['s3cr3t-value']));
    const html = renderHtml(report);
    expect(html).not.toContain('s3cr3t-value');
    expect(html).toContain('the token is ***');
  });
});

describe('HTML reporter on a large run', () => {
  it('draws at most 25 repeats of a test (the failed ones among them) and bounds the dots of a distribution', () => {
    const ok = https({ steps: [step('llm', 100)], wallMs: 150 });
    const failedRepeat = https({ status: 'failed', endedBy: 'failed_step', error: 'step llm failed', steps: [step('llm', 100, 'failed')], wallMs: 150 });
    const executions = Array.from({ length: 1000 }, (_, i) => (i === 700 ? failedRepeat : { ...ok, wallMs: 100 + (i % 97) }));
    const html = renderHtml(runReport([result('  - name: t\n    repeat: 1000\n    min_pass: 900\n', executions)]));
    expect(html.match(/<div class="repeat">/g)).toHaveLength(25);
    expect(html).toContain('<h3>repeat 701 · <span class="fail">fail</span>');
    expect(html).toContain('975 more repeats are in the JSON report');
    const wallChart = /<h4>client wall-clock<\/h4><figure class="chart"><figcaption>t · 999 samples[^]*?<\/figure>/.exec(html)![0];
    expect(wallChart.match(/<circle class="sample"/g)!.length).toBeLessThanOrEqual(400);
  });
});

describe('HTML reporter: what a reader needs without a click', () => {
  it('shows a snapshot diff in lines, not one line of \\n', () => {
    const html = renderHtml(runReport([snapshotFailure(2)]));
    expect(html).toContain(
      '<pre class="diff">--- snapshot\n+++ received\n@@ -1,2 +1,2 @@\n<span class="del">-label: a</span>\n<span class="del">-line1: a</span>\n<span class="add">+label: b</span>\n<span class="add">+line1: b</span></pre>',
    );
    expect(html).not.toContain('\\n+++');
  });

  it('marks the failing step and its budget in the waterfall of a failed execution, shown under Failures, and the total budget across it', () => {
    const test = '  - name: slow\n    expect:\n      latency:\n        total: "< 700ms"\n        steps: { "llm*": "< 200ms" }\n';
    const r = result(test, [https({ steps: [step('retriever', 100), step('llm-big', 300)], wallMs: 450 })]);
    const html = renderHtml(runReport([r]));
    const failure = /<article class="failure"[^]*?<\/article>/.exec(html)![0];
    const rows = failure.match(/<div class="wf-row[^"]*">[^]*?<\/span><\/div>/g)!;
    expect(rows[0]).toMatch(/^<div class="wf-row">/);
    expect(rows[1]).toMatch(/^<div class="wf-row fail"><span class="wf-label mono" title="llm-big">✗ llm-big/);
    expect(rows[1]).toContain('300ms ✗ over max &lt; 200ms');
    // The step budget ends where the bar should: its start (100ms) plus 200ms, on a scale to the total budget (700ms).
    expect(rows[1]).toContain('<span class="budget fail" style="left:42.86%" title="budget max &lt; 200ms">');
    expect(rows[1]).toContain('<span class="budget-line" style="left:100%">');
    expect(failure).toContain('total budget max &lt; 700ms');
  });

  it('draws one chart per test, on one axis per flow and latency: the charts compare', () => {
    const quick = result('  - name: quick\n', [https({ steps: [step('llm', 100)], wallMs: 100 })]);
    const slow = result('  - name: slow\n', [https({ steps: [step('llm', 200)], wallMs: 200 })]);
    const html = renderHtml(runReport([quick, slow]));
    const wall = /<h4>client wall-clock<\/h4>[^]*?<\/div>/.exec(html)![0];
    expect(wall.match(/<figure class="chart">/g)).toHaveLength(2);
    expect(wall).toContain('<figcaption>quick · 1 sample</figcaption>');
    expect(wall).toContain('<figcaption>slow · 1 sample</figcaption>');
    // 0 to 210ms for both: 100ms sits at 47.62%, 200ms at 95.24%.
    expect(wall).toContain('<circle class="sample" cx="47.62%"');
    expect(wall).toContain('<circle class="sample" cx="95.24%"');
    expect(wall).toContain('<div class="axis-legend muted" aria-hidden="true"><span>0</span><span>105ms</span><span>210ms</span></div>');
  });

  it('lists the ids of three failed repeats under the failure, and says where the others are', () => {
    const failedRepeat = (i: number) => https({ status: 'failed', endedBy: 'failed_step', error: 'step llm failed', steps: [step('llm', 100, 'failed')], ids: { executionId: `exec-${i}` } });
    const r = result('  - name: t\n    repeat: 5\n', [1, 2, 3, 4, 5].map(failedRepeat));
    const failure = /<article class="failure"[^]*?<\/article>/.exec(renderHtml(runReport([r])))![0];
    expect(failure.match(/on the tenant \(repeat \d\)/g)).toEqual(['on the tenant (repeat 1)', 'on the tenant (repeat 2)', 'on the tenant (repeat 3)']);
    expect(failure).toContain('and 2 more failed repeats, each with its ids under Results');
    const two = /<article class="failure"[^]*?<\/article>/.exec(renderHtml(runReport([result('  - name: t\n    repeat: 2\n', [1, 2].map(failedRepeat))])))![0];
    expect(two).not.toContain('more failed repeats');
  });

  it('a failed test whose repeats each passed reads "failed across repeats", not 2/2', () => {
    const r = result('  - name: t\n    repeat: 2\n    expect:\n      latency: { total: { p50: "< 50ms" } }\n', [https({ wallMs: 100 }), https({ wallMs: 120 })]);
    const html = renderHtml(runReport([r]));
    expect(html).toContain('[https] failed across repeats');
    expect(html).not.toContain('2/2');
  });
});
