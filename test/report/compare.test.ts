import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/core/compare/index.js';
import { renderComparison } from '../../src/report/combine/compare.js';
import { runReport } from './builders.js';
import { timedResult } from './compare-kit.js';

const files = { base: 'main.json', head: 'head.json' };

describe('report compare renderers', () => {
  it('escape names: control characters in text, markdown syntax in table cells', () => {
    const name = '"a | b *c* \\u001b[2J"';
    const ms = () => 100;
    const c = compareRuns(runReport([timedResult(name, 1, ms)]), runReport([timedResult(name, 1, ms, { failing: true })]));
    const text = renderComparison(c, files, 'text');
    expect(text).not.toMatch(/\u001b/);
    expect(text).toContain('a | b *c* \\u001b[2J');
    const md = renderComparison(c, files, 'markdown');
    expect(md).toContain('a \\| b \\*c\\* \\\\u001b\\[2J');
    expect(md.split('\n').find((l) => l.startsWith('| flows/'))!.split(/(?<!\\)\|/)).toHaveLength(10);
  });

  it('json carries the files compared and every verdict for scripts', () => {
    const c = compareRuns(runReport([timedResult('t', 20, (i) => 100 + i)]), runReport([timedResult('t', 20, (i) => 200 + i)]));
    const json = JSON.parse(renderComparison(c, files, 'json'));
    expect(json).toMatchObject({ base: 'main.json', head: 'head.json', threshold: 0.2, alpha: 0.05, min_samples: 5, regressions: 2, failing: true });
    expect(json.tests[0].wall).toMatchObject({ verdict: 'regression', base: { count: 20 }, head: { count: 20 } });
  });
});
