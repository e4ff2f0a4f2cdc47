import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { renderLintSarif, type Finding } from '../../../src/core/config/policy/index.js';

/** The official SARIF 2.1.0 schema (test/fixtures/README.md), made readable by ajv's draft-07 support. */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(new URL('../../fixtures/sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  delete schema['$schema'];
  delete schema['id'];
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, unicodeRegExp: false });
  return ajv.compile(schema);
}

const findings: Finding[] = [
  { rule: 'forbid', level: 'error', file: 'roles/support agent.md', line: 7, column: 12, message: 'content holds "internal.example.com"' },
  { rule: 'max_repeat', level: 'warn', file: 'flows/echo.yaml', line: 2, column: 21, message: 'repeats 50 times' },
  { rule: 'no-urls', level: 'hard', file: 'roles/a.md', line: 1, column: 1, message: 'a plugin finding' },
];

describe('SARIF 2.1.0', () => {
  test('validates against the official schema, with GitHub code scanning\'s required members', () => {
    const log = JSON.parse(renderLintSarif(findings, { version: '0.1.0' }));
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('roleflow');
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['forbid', 'max_repeat', 'no-urls']);
    expect(run.results.map((r: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }) => [
      r.ruleId,
      r.level,
      r.locations[0]!.physicalLocation.artifactLocation.uri,
      r.locations[0]!.physicalLocation.region.startLine,
      r.locations[0]!.physicalLocation.region.startColumn,
    ])).toEqual([
      ['max_repeat', 'warning', 'flows/echo.yaml', 2, 21],
      ['no-urls', 'error', 'roles/a.md', 1, 1],
      ['forbid', 'error', 'roles/support%20agent.md', 7, 12],
    ]);
    expect(run.results[0].ruleIndex).toBe(1);
  });

  test('no findings is a valid log with no results', () => {
    const log = JSON.parse(renderLintSarif([], { version: '0.1.0' }));
    expect(sarifValidator()(log)).toBe(true);
    expect(log.runs[0].results).toEqual([]);
  });

  test('a log the schema refuses is refused (the check can fail)', () => {
    const log = JSON.parse(renderLintSarif(findings, { version: '0.1.0' }));
    log.runs[0].results[0].level = 'fatal';
    expect(sarifValidator()(log)).toBe(false);
  });
});
