import { describe, expect, it } from 'vitest';
import { renderReportMarkdown } from '../../action/src/test-markdown.js';
import { https, result, runReport, snapshotFailure, ws } from '../report/builders.js';

const PASSING = '  - name: p\n    expect:\n      outputs:\n        - { path: results, exists: true }\n';

describe("the Action's test comment", () => {
  it('shows each failed snapshot as a folded diff with real lines, and quiet ends in the Why column', () => {
    const quiet = result(PASSING.replace('name: p', 'name: q'), [ws({ endedBy: 'quiet', outputs: { results: [] } })]);
    const passing = result(PASSING, [ws({ outputs: { results: [] } })]);
    const md = renderReportMarkdown(runReport([passing, quiet, snapshotFailure(3)]), { maxChars: 65_536 });
    expect(md).toContain(
      '<details><summary><code>flows/t.yaml</code>:6 › labels [WebSocket]: snapshot diff</summary>\n\n```diff\n--- snapshot\n+++ received\n@@ -1,3 +1,3 @@\n-label: a\n-line1: a\n-line2: a\n+label: b\n+line1: b\n+line2: b\n```\n',
    );
    // Failures first, then a pass that ended by quiet, then the plain pass.
    const rows = md.split('\n').filter((l) => /^\| (✅|❌)/.test(l));
    expect(rows.map((l) => l.split(' | ')[1])).toEqual(['<code>flows/t.yaml</code> › labels (flow <code>summarize</code>)', '<code>flows/t.yaml</code> › q (flow <code>summarize</code>)', '<code>flows/t.yaml</code> › p (flow <code>summarize</code>)']);
    expect(rows[1]).toContain('| ended by quiet, no until reached |');
  });

  it('keeps room for the table when the diffs are many, and counts the diffs left out', () => {
    const failures = Array.from({ length: 200 }, () => snapshotFailure(30));
    const md = renderReportMarkdown(runReport(failures), { maxChars: 20_000 });
    expect(md.length).toBeLessThanOrEqual(20_000);
    const shown = md.match(/: snapshot diff<\/summary>/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(0);
    expect(md).toContain(`… ${200 - shown} more snapshot diffs in the job summary and the JSON report.`);
    expect(md).toMatch(/\| ❌ fail \|/);
  });

  it('a failed test whose repeats each passed does not read 3/3', () => {
    const r = result('  - name: t\n    repeat: 3\n    expect:\n      latency: { total: { p50: "< 50ms" } }\n', [https({ wallMs: 100 }), https({ wallMs: 120 }), https({ wallMs: 90 })]);
    const md = renderReportMarkdown(runReport([r]), { maxChars: 65_536 });
    expect(md).toContain('| failed across repeats |');
    expect(md).not.toContain('3/3');
  });
});
