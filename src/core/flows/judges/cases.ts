import type { Issue, Result } from '../../errors.js';
import type { JudgeAssertion, JudgeRecord } from '../types.js';
import { validateAgainst } from '../../text/schema.js';
import { parseYaml } from '../../text/yaml-source.js';

/** One labelled output of `flows/_judges/*.yaml` (`schemas/judge-cases.schema.json`). */
export interface JudgeCase {
  file: string;
  line: number;
  name: string;
  output: string;
  label: 'good' | 'bad';
  spec: JudgeAssertion;
}

interface RawCases {
  judge: string;
  cases: { name: string; output: string; rubric: string; reference?: string; label: 'good' | 'bad'; votes?: number }[];
}

/** A judge-cases file; a problem (the schema, an even `votes`, a judge the config lacks) is located. */
export function parseJudgeCases(text: string, file: string, schema: object, judges: readonly string[]): Result<JudgeCase[]> {
  const source = parseYaml(text, { file });
  if (!source.ok) return source;
  const valid = validateAgainst<RawCases>(schema, source.value, file);
  if (!valid.ok) return valid;
  const issues: Issue[] = [];
  if (!judges.includes(valid.value.judge)) issues.push({ file, ...source.value.locate('/judge'), message: `judge: no judge named ${JSON.stringify(valid.value.judge)} in the config's judges:` });
  const cases = valid.value.cases.map((c, i): JudgeCase => {
    const votes = c.votes ?? 1;
    if (votes % 2 === 0) issues.push({ file, ...source.value.locate(`/cases/${i}/votes`), message: `votes ${votes} is even: make it odd` });
    const spec: JudgeAssertion = { name: valid.value.judge, rubric: c.rubric, votes };
    if (c.reference !== undefined) spec.reference = c.reference;
    return { file, line: source.value.locate(`/cases/${i}`).line, name: c.name, output: c.output, label: c.label, spec };
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: cases };
}

export interface JudgeAgreement {
  judge: string;
  cases: number;
  agreed: number;
  /** agreed ÷ cases. */
  agreement: number;
  /** The cases the judge did not agree with (an error counts as a disagreement). */
  disagreements: { name: string; file: string; line: number; label: 'good' | 'bad'; verdict: JudgeRecord['verdict']; reasons: string[] }[];
}

/** How often each judge's verdicts agree with the labels, judge by judge in the order first met. */
export function judgeAgreement(judged: readonly { case: JudgeCase; record: JudgeRecord }[]): JudgeAgreement[] {
  const byJudge = new Map<string, JudgeAgreement>();
  for (const { case: c, record } of judged) {
    const entry = byJudge.get(c.spec.name) ?? { judge: c.spec.name, cases: 0, agreed: 0, agreement: 0, disagreements: [] };
    byJudge.set(c.spec.name, entry);
    entry.cases++;
    if ((record.verdict === 'pass') === (c.label === 'good') && record.verdict !== 'error') entry.agreed++;
    else entry.disagreements.push({ name: c.name, file: c.file, line: c.line, label: c.label, verdict: record.verdict, reasons: record.reasons });
    entry.agreement = entry.agreed / entry.cases;
  }
  return [...byJudge.values()];
}

/** One line per judge, then each disagreement at its file:line. */
export function renderAgreementText(agreements: readonly JudgeAgreement[]): string {
  return agreements
    .flatMap((a) => [
      `judge ${a.judge}: agrees with ${a.agreed} of ${a.cases} labels (${Math.round(a.agreement * 100)}%)`,
      ...a.disagreements.map((d) => `  ${d.file}:${d.line}: ${JSON.stringify(d.name)} is labelled ${d.label}, judged ${d.verdict}${d.reasons.length > 0 ? `: ${d.reasons.join(' | ')}` : ''}`),
    ])
    .join('\n');
}
