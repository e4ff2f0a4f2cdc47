import { escapeControls, jsonText } from '../../text/safe-text.js';
import { FLOW_RULES, ROLE_RULES, type Finding, type Level } from './types.js';

export const LINT_FORMAT_VERSION = 1;

/** Findings in file, line, column order (the order every format lists them in). */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : 1));
}

/** `file:line:col: level rule: message` per finding, then a count; control characters escaped. */
export function renderLintText(findings: readonly Finding[], checked: { roleFiles: number; flowFiles: number }): string {
  const lines = sortFindings(findings).map((f) => `${escapeControls(f.file)}:${f.line}:${f.column}: ${f.level} ${escapeControls(f.rule)}: ${escapeControls(f.message)}`);
  const count = (level: Level) => findings.filter((f) => f.level === level).length;
  const files = `${checked.roleFiles} role file${checked.roleFiles === 1 ? '' : 's'} and ${checked.flowFiles} flow test file${checked.flowFiles === 1 ? '' : 's'}`;
  const total =
    findings.length === 0
      ? `No findings in ${files}.`
      : `${findings.length} finding${findings.length === 1 ? '' : 's'} in ${files}: ${count('hard')} hard, ${count('error')} error, ${count('warn')} warn.`;
  return [...lines, total].join('\n');
}

/** `{format_version, findings}` (`schemas/lint.schema.json`). */
export function renderLintJson(findings: readonly Finding[]): string {
  return `${jsonText({ format_version: LINT_FORMAT_VERSION, findings: sortFindings(findings) }, 2)}\n`;
}

const RULE_HELP: Record<string, string> = {
  max_chars: 'A Role longer than policy.roles.max_chars.',
  forbid: 'A phrase or pattern that policy.roles.forbid forbids in a Role.',
  must_include: 'A phrase that policy.roles.must_include requires in every Role.',
  name: 'A Role name that does not match policy.roles.name.',
  description: 'A Role without a description (policy.roles.description: required).',
  secrets: 'A credential (a key format, a configured token or a secret variable) in a Role: always an error.',
  require_assertions: 'A flow test without an assertion (policy.flows.require_assertions).',
  max_repeat: 'A flow test repeated more than policy.flows.max_repeat times.',
};

/**
 * SARIF 2.1.0, as GitHub code scanning reads it: one run of the tool `roleflow`, a rule per rule
 * id found (the built-in ones described), a result per finding at its file, line and column
 * (`%SRCROOT%`: as given, which `lint` makes relative to the top of the git checkout). `warn` is a `warning`; `error` and `hard`
 * are `error`s (the level is kept in the result's properties).
 */
export function renderLintSarif(findings: readonly Finding[], tool: { version: string; informationUri?: string }): string {
  const sorted = sortFindings(findings);
  const ids = [...new Set([...ROLE_RULES, ...FLOW_RULES, ...sorted.map((f) => f.rule)])].filter((id) => sorted.some((f) => f.rule === id));
  const rules = ids.map((id) => ({
    id,
    name: id,
    shortDescription: { text: RULE_HELP[id] ?? `The policy plugin rule ${id}.` },
    ...(RULE_HELP[id] === undefined ? {} : { fullDescription: { text: RULE_HELP[id] } }),
  }));
  const results = sorted.map((f) => ({
    ruleId: f.rule,
    ruleIndex: ids.indexOf(f.rule),
    level: f.level === 'warn' ? 'warning' : 'error',
    message: { text: f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeUri(f.file), uriBaseId: '%SRCROOT%' },
          region: { startLine: f.line, startColumn: f.column },
        },
      },
    ],
    properties: { level: f.level },
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'roleflow', version: tool.version, ...(tool.informationUri ? { informationUri: tool.informationUri } : {}), rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${jsonText(log, 2)}\n`;
}

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
function encodeUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}
