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
 * JUnit XML: a `<testsuite>` per file, a `<testcase>` per test × transport × repeat with
 * `classname` "file > flow". An assertion (or the flow) failing is a `<failure>`; an execution
 * that did not finish (timeout, transport) is an `<error>`. Budgets judged across repeats fail the
 * last repeat that ran; a repeat that failed within `min_pass` passes, with a note in system-out.
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
  const suites = [...byFile].map(([file, cases]) =>
    [
      `  <testsuite name="${attr(safeText(file))}" ${counts(cases)} timestamp="${attr(report.started_at)}">`,
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
  // The tenant's ids of the execution, as testcase properties (what Jenkins and GitLab read).
  const ids = idProperties(repeat);
  // Judge verdicts (reasons, the judge executions' ids) are told in system-out, whatever the outcome.
  const judged = judgeLines(repeat.assertions);
  const out = (note?: string): string => {
    const said = [...(note === undefined ? [] : [escapeControls(note)]), ...judged];
    return said.length === 0 ? '' : `\n      <system-out>${text(said.join('\n'))}</system-out>`;
  };
  switch (outcome.kind) {
    case 'pass':
      if (outcome.note === undefined && ids === '' && judged.length === 0) return `${open}/>`;
      return `${open}>${ids}${out(outcome.note)}\n    </testcase>`;
    case 'skipped':
      return `${open}>${ids}\n      <skipped message="${attr(escapeControls(outcome.message))}"/>${out()}\n    </testcase>`;
    default: {
      const type = outcome.kind === 'error' ? 'ExecutionError' : 'AssertionError';
      return `${open}>${ids}\n      <${outcome.kind} message="${attr(escapeControls(outcome.message))}" type="${type}">${text(outcome.details)}</${outcome.kind}>${out()}\n    </testcase>`;
    }
  }
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

function idProperties(repeat: RepeatResult): string {
  const ids = repeat.ids;
  if (!ids) return '';
  const props = [
    ['flowId', ids.flow_id],
    ['executionId', ids.execution_id],
    ['connectionId', ids.connection_id],
    ['messageIds', ids.message_ids?.join(' ')],
  ].filter((p): p is [string, string] => p[1] !== undefined);
  return `\n      <properties>${props.map(([k, v]) => `<property name="${k}" value="${attr(safeText(v))}"/>`).join('')}</properties>`;
}
