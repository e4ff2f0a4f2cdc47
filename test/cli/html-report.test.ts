import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { copyFile, cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { repoRoot, runBin, tempDir } from '../helpers/cli.js';

/** Debian's chromium: `.ci/run` installs it. Without it this test fails, saying so: it never passes unrun. */
const CHROMIUM = '/usr/bin/chromium';
/** Where the README's picture is kept; the test rewrites it when ROLEFLOW_SCREENSHOT=docs. */
const README_SHOT = join(repoRoot, 'docs', 'html-report.png');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe-core (injected into the page) finds serious or critical, one line each. */
async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate('window.axe.run(document).then((r) => r.violations)')) as { id: string; impact: string; nodes: { target: string[] }[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Chromium with a fresh profile in `dir` (Playwright's own flag for --user-data-dir). */
function openBrowser(dir: string, javaScriptEnabled = true): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(dir, 'chromium-profile'), { executablePath: CHROMIUM, args: ARGS, javaScriptEnabled, viewport: { width: 1200, height: 900 } });
}

describe('the HTML report in a real browser', () => {
  it('opens from file:// with no request and no console error; its matrix, failures and waterfalls match the run', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`).toBe(true);
    const { dir, cleanup } = await tempDir('roleflow-html-');
    const browser = await openBrowser(dir);
    try {
      await cp(join(repoRoot, 'flows'), join(dir, 'flows'), { recursive: true });
      // The Roles of roles/ on the embedded tenant: the summarize flow runs with one; not_leaks reads them.
      await cp(join(repoRoot, 'roles'), join(dir, 'roles'), { recursive: true });
      expect(await runBin(['apply', '--auto-approve'], { cwd: dir })).toMatchObject({ code: 0 });
      await mkdir(join(dir, 'examples'));
      await copyFile(join(repoRoot, 'examples', 'failing-flow.yaml'), join(dir, 'examples', 'failing-flow.yaml'));
      const run = await runBin(['test', 'flows', 'examples/failing-flow.yaml', '--repeat', '3', '--reporter', 'html', '--reporter', 'json=report.json'], { cwd: dir, timeoutMs: 120_000 });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(3);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
      const file = pathToFileURL(join(dir, 'roleflow-report.html')).href;

      const page = await browser.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(file);

      // The matrix: each flow × transport's counts as the JSON report has them.
      const cells = await page.$$eval('#matrix td[data-flow]', (tds) => tds.map((td) => ({ flow: td.getAttribute('data-flow'), transport: td.getAttribute('data-transport'), pass: td.getAttribute('data-pass'), fail: td.getAttribute('data-fail'), text: td.textContent })));
      const expected = new Map<string, { pass: number; fail: number }>();
      for (const r of report.results) {
        const key = `${r.flow} ${r.transport}`;
        const count = expected.get(key) ?? { pass: 0, fail: 0 };
        if (r.status === 'pass') count.pass += 1;
        if (r.status === 'fail' || r.status === 'error') count.fail += 1;
        expected.set(key, count);
      }
      expect(cells).toHaveLength(expected.size);
      for (const cell of cells) {
        const want = expected.get(`${cell.flow} ${cell.transport}`)!;
        expect([cell.pass, cell.fail]).toEqual([String(want.pass), String(want.fail)]);
        expect(cell.text).toContain(`${want.pass} ✓`);
      }
      expect(await page.textContent('#totals')).toContain(`${report.summary.passed} passed · ${report.summary.failed} failed`);

      // A failure shows whole without a click: expected vs actual, and the waterfall of a failed
      // execution with the failing step and its budget marked.
      const failure = page.locator('#failures article.failure', { hasText: '[https]' }).first();
      expect(await failure.locator('td.expected').first().textContent()).toBe('max < 50ms');
      expect(await failure.locator('td.actual').first().textContent()).toMatch(/^120ms \(max of 1 step, server-reported\)$/);
      expect(await failure.textContent()).toContain('examples/failing-flow.yaml:17:29');
      const https = report.results.find((r) => r.transport === 'https' && r.status === 'fail')!;
      const waterfall = failure.locator('.waterfall');
      expect(await waterfall.isVisible()).toBe(true);
      expect(await waterfall.locator('.bar').count()).toBe(https.repeats[0]!.steps.length);
      const failing = waterfall.locator('.wf-row.fail');
      expect(await failing.count()).toBe(1);
      expect(await failing.textContent()).toMatch(/retriever.*120ms ✗ over max < 50ms/);
      expect(await failing.locator('.budget.fail').count()).toBe(1);
      // Full width: the waterfall takes the width of its failure, less the padding.
      const [box, wide] = [await failure.boundingBox(), await waterfall.boundingBox()];
      expect(wide!.width).toBeGreaterThan(box!.width - 40);

      // Under Results, every repeat has its waterfall: one bar per logged step.
      const result = page.locator('#results details.result', { hasText: `${https.id} [https]` });
      await result.locator('summary').click();
      const bars = await result.locator('.repeat').first().locator('.waterfall .bar').count();
      expect(bars).toBe(https.repeats[0]!.steps.length);
      expect(bars).toBeGreaterThan(0);

      // No serious or critical problem for axe-core, folded or unfolded, wide or at a phone's width;
      // and at 390 px the page never scrolls sideways.
      expect(await axeProblems(page)).toEqual([]);
      await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
      expect(await axeProblems(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await axeProblems(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })");
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1200, height: 900 });

      // The filters work once the script ran: only the failed results stay.
      await page.selectOption('#filters select[name=status]', 'fail');
      expect(await page.locator('#results details.result:not(.hidden)').count()).toBe(report.summary.failed);
      await page.selectOption('#filters select[name=status]', '');
      await page.fill('#filters input[name=q]', 'classify');
      expect(await page.locator('#results details.result:not(.hidden)').count()).toBe(report.results.filter((r) => r.id.includes('classify')).length);
      await page.fill('#filters input[name=q]', '');

      const shot = process.env['ROLEFLOW_SCREENSHOT'] === 'docs' ? README_SHOT : join(dir, 'html-report.png');
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: shot });
      expect(existsSync(shot)).toBe(true);
      expect(problems).toEqual([]);
      expect(requests).toEqual([file]);
      await page.close();
    } finally {
      await browser.close();
      await cleanup();
    }
  }, 180_000);

  it('shows the matrix, the failures and the charts with JavaScript off', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`).toBe(true);
    const { dir, cleanup } = await tempDir('roleflow-html-nojs-');
    const browser = await openBrowser(dir, false);
    try {
      await mkdir(join(dir, 'examples'));
      await copyFile(join(repoRoot, 'examples', 'failing-flow.yaml'), join(dir, 'examples', 'failing-flow.yaml'));
      await cp(join(repoRoot, 'roles'), join(dir, 'roles'), { recursive: true });
      const run = await runBin(['test', 'examples/failing-flow.yaml', '--reporter', 'html=out/r.html'], { cwd: dir, timeoutMs: 60_000 });
      expect(run.code).toBe(3);
      const page = await browser.newPage();
      await page.goto(pathToFileURL(join(dir, 'out', 'r.html')).href);
      expect(await page.locator('#matrix td[data-flow]').count()).toBe(2);
      expect(await page.locator('#failures article.failure').count()).toBe(3); // the wrong summary over each transport, the leak
      expect(await page.locator('#latency svg.dist').count()).toBeGreaterThan(0);
      expect(await page.locator('#filters').isVisible()).toBe(false);
      expect(await page.locator('#failures td.expected').first().isVisible()).toBe(true);
      expect(await page.locator('#failures .waterfall').first().isVisible()).toBe(true);
    } finally {
      await browser.close();
      await cleanup();
    }
  }, 120_000);
});
