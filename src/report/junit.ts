import type { AssertionResult } from '../core/flows/index.js';
import { pushAll } from '../core/text/lists.js';
import { escapeControls, safeText } from '../core/text/safe-text.js';
import { notRunReason } from './build.js';
import { idsText, judgeLines } from './digest.js';
import type { RepeatResult, RunReport, TestResult } from './model.js';

type Outcome =
  | { kind: 'pass'; note?: string }
  | { kind: 'failure' | 'error'; message: string; details: string }
  | { kind: 'skipped'; message: string };

interface Case {
  result: TestResult;
  repeat: RepeatResult;
  outcome: Outcome;
}

/**
 * JUnit XML, valid against the Jenkins xunit junit-10 XSD but for the extensions consumers read
 * (`file` and `line` on testcase, `skipped` and `timestamp` on testsuites): a `<testsuite>` per
 * file, named `tenant: file` (two tenants' runs never share a suite), a `<testcase>` per test ×
 * transport × repeat with `classname` "file > flow". An assertion (or the flow) failing is a
 * `<failure>`; an execution that did not finish (timeout, transport) is an `<error>`. Budgets
 * judged across repeats fail the last repeat that ran; a repeat that failed within `min_pass`
 * passes, with a note. How each execution ended (`ended_by`) and its ids on the tenant are in the
 * testcase's `<system-out>` (the XSD has no properties inside a testcase).
 */
export function renderJunit(report: RunReport): string {
  const byFile = new Map<string, Case[]>();
  for (const result of report.results) {
    const cases = byFile.get(result.file) ?? [];
    pushAll(cases, casesOf(result, notRunReason(report.interrupted ? 'interrupt' : 'bail')));
    byFile.set(result.file, cases);
  }
  const all = [...byFile.values()].flat();
  const props = [
    ['tenant', safeText(report.tenant.name)],
    ['base_url', safeText(report.tenant.base_url)],
    ...(report.shard ? [['shard', `${report.shard.index}/${report.shard.total}`]] : []),
  ];
  const tenant = safeText(report.tenant.name);
  const suites = [...byFile].map(([file, cases]) =>
    [
      `  <testsuite name="${attr(`${tenant}: ${safeText(file)}`)}" ${counts(cases)} timestamp="${attr(report.started_at)}">`,
      `    <properties>${props.map(([k, v]) => `<property name="${attr(k!)}" value="${attr(v!)}"/>`).join('')}</properties>`,
      ...cases.map(renderCase),
      '  </testsuite>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="roleflow" ${counts(all)} timestamp="${attr(report.started_at)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function casesOf(result: TestResult, notRun: string): Case[] {
  const lastRan = result.repeats.filter((r) => r.status !== 'not_run').at(-1);
  const across = result.across_repeats.filter((a) => a.status === 'fail');
  const failed = result.status === 'fail' || result.status === 'error';
  return result.repeats.map((repeat) => ({ result, repeat, outcome: outcomeOf(result, repeat, failed, repeat === lastRan ? across : [], notRun) }));
}

function outcomeOf(result: TestResult, repeat: RepeatResult, testFailed: boolean, across: readonly AssertionResult[], notRun: string): Outcome {
  if (repeat.status === 'not_run') {
    // JUnit has no "not run": a repeat --bail or an interruption stopped is a skipped case that says so.
    return { kind: 'skipped', message: result.status === 'skip' ? result.message : notRun };
  }
  const failing = [...repeat.assertions.filter((a) => a.status === 'fail'), ...across];
  if (repeat.status === 'skip' && failing.length === 0) {
    return { kind: 'skipped', message: repeat.assertions.find((a) => a.status === 'skip')?.message ?? 'skipped' };
  }
  if (failing.length === 0) return { kind: 'pass' };
  const first = failing[0]!.message;
  if (!testFailed) return { kind: 'pass', note: `this repeat failed, within min_pass ${result.min_pass} of ${result.repeat}: ${first}` };
  const ids = idsText(repeat.ids);
  return { kind: repeat.status === 'error' ? 'error' : 'failure', message: first, details: `${lines(result, failing)}${ids ? `\non the tenant: ${ids}` : ''}` };
}

function renderCase({ result, repeat, outcome }: Case): string {
  const name = `${safeText(result.name)} [${result.transport}]${result.repeat > 1 ? ` (repeat ${repeat.index}/${result.repeat})` : ''}`;
  const time = ((repeat.wall_ms ?? 0) / 1000).toFixed(3);
  const file = safeText(result.file);
  const open = `    <testcase classname="${attr(`${file} > ${safeText(result.flow)}`)}" name="${attr(name)}" time="${time}" file="${attr(file)}" line="${result.line}"`;
  // How the execution ended, its ids on the tenant, a note, and judge verdicts (reasons, the judge
  // executions' ids), whatever the outcome.
  const said = [...systemOut(repeat), ...(outcome.kind === 'pass' && outcome.note !== undefined ? [escapeControls(outcome.note)] : []), ...judgeLines(repeat.assertions)];
  const out = said.length === 0 ? '' : `\n      <system-out>${text(said.join('\n'))}</system-out>`;
  switch (outcome.kind) {
    case 'pass':
      return out === '' ? `${open}/>` : `${open}>${out}\n    </testcase>`;
    case 'skipped':
      return `${open}>\n      <skipped message="${attr(escapeControls(outcome.message))}"/>${out}\n    </testcase>`;
    default: {
      const type = outcome.kind === 'error' ? 'ExecutionError' : 'AssertionError';
      return `${open}>\n      <${outcome.kind} message="${attr(escapeControls(outcome.message))}" type="${type}">${text(outcome.details)}</${outcome.kind}>${out}\n    </testcase>`;
    }
  }
}

/** `ended_by: until` and `on the tenant: executionId …, flowId …`, for an execution that started. */
function systemOut(repeat: RepeatResult): string[] {
  const ids = idsText(repeat.ids);
  return [...(repeat.ended_by === undefined ? [] : [`ended_by: ${repeat.ended_by}`]), ...(ids === '' ? [] : [`on the tenant: ${ids}`])];
}

function counts(cases: readonly Case[]): string {
  const n = (kind: Outcome['kind']) => cases.filter((c) => c.outcome.kind === kind).length;
  const seconds = cases.reduce((s, c) => s + (c.repeat.wall_ms ?? 0), 0) / 1000;
  return `tests="${cases.length}" failures="${n('failure')}" errors="${n('error')}" skipped="${n('skipped')}" time="${seconds.toFixed(3)}"`;
}

function lines(result: TestResult, assertions: readonly AssertionResult[]): string {
  return assertions
    .map((a) => `${safeText(result.file)}:${a.line}:${a.col}: ${escapeControls(a.message)}${a.diff === undefined ? '' : `\n${diffText(a.diff)}`}`)
    .join('\n');
}

/** A snapshot's diff, line by line escaped (the line breaks are the diff's own). */
function diffText(diff: string): string {
  return diff.replace(/\n$/, '').split('\n').map(escapeControls).join('\n');
}

// Names and messages reach these escaped (`safe-text.ts`), so nothing is lost here. XML 1.0 allows
// tab, LF, CR and the ranges below; anything else cannot appear even as a character reference: a
// last guard drops it, so the document stays well-formed whatever a caller passes.
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function text(value: string): string {
  return value.replace(ILLEGAL_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values also escape quotes, and line breaks so that parsers keep them. */
function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
