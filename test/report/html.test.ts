import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html/report.js';
import { makeRedactor } from '../../src/core/text/redact.js';
import { redactReport } from '../../src/report/run-report.js';
import { https, result, runReport, step, wsWith } from './builders.js';

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
    const waterfall = /<svg class="waterfall"[^]*?<\/svg>/.exec(html)![0];
    expect(waterfall.match(/<rect class="bar/g)).toHaveLength(3);
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
    const wallChart = /<figure class="chart"><figcaption>client wall-clock · 999 samples[^]*?<\/figure>/.exec(html)![0];
    expect(wallChart.match(/<circle class="sample"/g)!.length).toBeLessThanOrEqual(400);
  });
});
