import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { repoRoot, runBin, tempDir } from '../helpers/cli.js';

/** Debian's chromium: `.ci/run` installs it. Without it this test fails, saying so: it never passes unrun. */
const CHROMIUM = '/usr/bin/chromium';
/** Where the README's picture is kept; the test rewrites it when ROLEFLOW_SCREENSHOT=docs. */
const README_SHOT = join(repoRoot, 'docs', 'html-report.png');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

      // A failure's expected vs actual shows after a click on it.
      const failure = page.locator('#failures details.failure', { hasText: '[https]' }).first();
      const expectedCell = failure.locator('td.expected').first();
      expect(await expectedCell.isVisible()).toBe(false);
      await failure.locator('summary').click();
      expect(await expectedCell.textContent()).toBe('max < 50ms');
      expect(await failure.locator('td.actual').first().textContent()).toMatch(/^120ms \(max of 1 step, server-reported\)$/);
      expect(await failure.textContent()).toContain('examples/failing-flow.yaml:17:29');

      // A waterfall: one bar per logged step of that execution.
      const https = report.results.find((r) => r.transport === 'https' && r.status === 'fail')!;
      const result = page.locator('#results details.result', { hasText: `${https.id} [https]` });
      await result.locator('summary').click();
      const bars = await result.locator('.repeat').first().locator('svg.waterfall rect.bar').count();
      expect(bars).toBe(https.repeats[0]!.steps.length);
      expect(bars).toBeGreaterThan(0);

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
      expect(await page.locator('#failures details.failure').count()).toBe(3); // the wrong summary over each transport, the leak
      expect(await page.locator('#latency svg.dist').count()).toBeGreaterThan(0);
      expect(await page.locator('#filters').isVisible()).toBe(false);
      await page.locator('#failures details.failure summary').first().click();
      expect(await page.locator('#failures td.expected').first().isVisible()).toBe(true);
    } finally {
      await browser.close();
      await cleanup();
    }
  }, 120_000);
});
