import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';
import { esc } from './html-charts.js';
import { distributions, failures, filters, matrix, results, runHeader } from './html-parts.js';
import type { RunReport } from './model.js';

/**
 * The HTML report: one self-contained page (inline CSS, JS and SVG) that makes no request of any
 * kind — its Content-Security-Policy forbids them — so it opens from file:// and as a CI
 * artifact. Server-rendered: the matrix, the failures and the charts read without JavaScript;
 * the script adds the filters and the search. Every text is escaped; the report's values are
 * redacted before they reach it.
 */
export function renderHtml(report: RunReport): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>roleflow test report · ${esc(report.tenant.name)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
${runHeader(report)}
${matrix(report)}
${failures(report)}
${filters(report)}
${distributions(report)}
${results(report)}
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
