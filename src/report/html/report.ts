import { HTML_SCRIPT, HTML_STYLE } from './assets.js';
import { esc } from './charts.js';
import { distributions } from './distributions.js';
import { failures } from './failures.js';
import { filters, matrix, pictureCapOf, results, runHeader } from './parts.js';
import type { RunReport } from '../model.js';

/**
 * The HTML report: one self-contained page (inline CSS, JS and SVG) that makes no request of any
 * kind — its Content-Security-Policy forbids them — so it opens from file:// and as a CI
 * artifact. Server-rendered: the matrix, the failures and the charts read without JavaScript;
 * the script adds the filters and the search. Every text is escaped; the report's values are
 * redacted before they reach it.
 */
export function renderHtml(report: RunReport): string {
  const cap = pictureCapOf(report);
  const main = [matrix(report), failures(report, cap), filters(report), distributions(report), results(report, cap)].join('\n');
  const body = `${runHeader(report)}\n<main>\n${main}\n</main>`;
  return htmlPage(`roleflow test report · ${report.tenant.name}`, { style: HTML_STYLE, script: HTML_SCRIPT }, body);
}

/**
 * A self-contained page: its Content-Security-Policy forbids every request, so it opens from
 * file:// and as a CI artifact; the only style and script are the inline ones given.
 */
export function htmlPage(title: string, assets: { style: string; script?: string }, body: string): string {
  const policy = `default-src 'none'; style-src 'unsafe-inline';${assets.script === undefined ? '' : " script-src 'unsafe-inline';"} img-src data:`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${assets.style}</style>
</head>
<body>
${body}
${assets.script === undefined ? '' : `<script>${assets.script}</script>\n`}</body>
</html>
`;
}
