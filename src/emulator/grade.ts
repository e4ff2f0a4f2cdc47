/**
 * The emulator's stand-in for a judge model (a flow's `grade:`): deterministic, so demos and tests
 * of `judge` assertions pass and fail as their rubric says. The rubric's words of four letters or
 * more are looked for in the text; one is found when a word of the text starts with its first five
 * letters (so "apologises" is found in "we apologise"). The score is the share found; the text
 * passes at `pass_at` (default 0.5). Output templates read `${grade.pass}` ("true"/"false"),
 * `${grade.score}` (two decimals) and `${grade.reason}`.
 */
export interface GradeConfig {
  /** The input holding the text to grade, and the one holding the rubric. */
  text: string;
  rubric: string;
  pass_at?: number;
}

export function grade(config: GradeConfig, inputs: Readonly<Record<string, string>>): Record<string, string> {
  const text = words(inputs[config.text] ?? '');
  const wanted = [...new Set(words(inputs[config.rubric] ?? '').filter((w) => w.length >= 4))];
  const found = wanted.filter((w) => text.some((t) => t.startsWith(w.slice(0, 5))));
  const missing = wanted.filter((w) => !found.includes(w));
  const score = wanted.length === 0 ? 0 : found.length / wanted.length;
  const pass = wanted.length > 0 && score >= (config.pass_at ?? 0.5);
  const reason =
    wanted.length === 0
      ? 'the rubric has no word of four letters or more to look for'
      : `${found.length} of ${wanted.length} rubric words found${found.length > 0 ? `: ${found.join(', ')}` : ''}${missing.length > 0 ? `; missing: ${missing.join(', ')}` : ''}`;
  return { 'grade.pass': String(pass), 'grade.score': score.toFixed(2), 'grade.reason': reason };
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
