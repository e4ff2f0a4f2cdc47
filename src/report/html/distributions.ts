import { stepSamples, wallSamples } from '../../core/compare/index.js';
import { groupBy } from '../../core/text/lists.js';
import type { RunReport, TestResult } from '../model.js';
import { axisLegend, axisOf, distributionSvg, esc, MAX_DOTS } from './charts.js';

/** Dots drawn on the whole page at most: past it, each chart draws fewer (never under `MIN_DOTS`). */
const PAGE_DOTS = 40_000;
const MIN_DOTS = 20;

/**
 * Per flow × transport, per latency — the client wall-clock, then each step's server-reported
 * latency — one chart per test on one axis from 0, shared by every test of the flow for that
 * latency: the charts of a column compare at a glance.
 */
export function distributions(report: RunReport): string {
  const groups = [...groupBy(report.results, (r) => `${r.flow}\u0000${r.transport}`).values()];
  const metrics = groups.map((results) => {
    const services = [...new Set(results.flatMap((r) => r.repeats.flatMap((x) => x.steps.map((s) => s.service))))];
    return [
      { label: 'client wall-clock', samples: (r: TestResult) => wallSamples(r) },
      ...services.map((service) => ({ label: `step ${service} (server-reported)`, samples: (r: TestResult) => stepSamples(r, service) })),
    ];
  });
  const charts = metrics.reduce((n, list, i) => n + list.length * groups[i]!.length, 0);
  const dots = Math.min(MAX_DOTS, Math.max(MIN_DOTS, Math.floor(PAGE_DOTS / Math.max(1, charts))));
  const figures = groups.map((results, i) => {
    const { flow, transport } = results[0]!;
    const columns = metrics[i]!.map((metric) => {
      const samples = results.map((r) => ({ r, samples: metric.samples(r) })).filter((s) => s.samples.length > 0);
      if (samples.length === 0) return '';
      const axis = axisOf(samples.flatMap((s) => s.samples));
      const perTest = samples.map((s) => distributionSvg(s.samples, s.r.name, axis, dots));
      return `<div class="metric"><h4>${esc(metric.label)}</h4>${perTest.join('')}${axisLegend(axis)}</div>`;
    });
    return `<div class="flow-charts" data-flow="${esc(flow)}" data-transport="${transport}"><h3><span class="mono">${esc(flow)}</span> [${transport}]</h3><div class="charts">${columns.join('')}</div></div>`;
  });
  return `<section id="latency" aria-labelledby="latency-h"><h2 id="latency-h">Latency distributions</h2><p class="muted">One chart per test; the charts of a latency share its axis, from 0.</p>${figures.join('') || '<p class="muted">no executions</p>'}</section>`;
}
