import { parseDuration } from '../duration.js';
import { parsePath } from '../path.js';
import type { PathSegment } from '../types.js';

/** A problem at a JSON pointer of the config, which the config loader locates. */
interface PointedIssue {
  pointer: string;
  message: string;
}

/** `judges.NAME` of the config: a tenant flow that grades an output (PRODUCT.md "Judges and similarity"). */
export interface JudgeConfig {
  name: string;
  flow: string;
  /** The judge's prompt Role (default: the flow's name): its content is in every verdict's digest. */
  role: string;
  /** The flow's inputs, `${output}`, `${rubric}`, `${reference}` to be replaced. */
  inputs: Record<string, string>;
  verdict: { pass: VerdictPath; score: VerdictPath; reason: VerdictPath };
  timeoutMs: number;
  /** When one execution is over (WebSocket): at `node`'s completed message, or the `messages`-th. */
  until: { node?: string; messages?: number };
}

export interface VerdictPath {
  text: string;
  segments: PathSegment[];
}

export interface RawJudge {
  flow: string;
  role?: string;
  inputs?: Record<string, string>;
  verdict?: { pass?: string; score?: string; reason?: string };
  timeout?: string | number;
  until?: { node?: string; messages?: number };
}

export const DEFAULT_JUDGE_INPUTS: Readonly<Record<string, string>> = { output: '${output}', rubric: '${rubric}', reference: '${reference}' };
const DEFAULT_PATHS = { pass: 'results[0].pass', score: 'results[0].score', reason: 'results[0].reason' } as const;
const DEFAULT_JUDGE_TIMEOUT_MS = 60_000;

/** The judges of the config; a path or timeout that does not read is a problem at its pointer. */
export function parseJudges(raw: Record<string, RawJudge> | undefined): { judges: Record<string, JudgeConfig>; issues: PointedIssue[] } {
  const judges: Record<string, JudgeConfig> = {};
  const issues: PointedIssue[] = [];
  for (const [name, j] of Object.entries(raw ?? {})) {
    const at = `/judges/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const path = (key: keyof typeof DEFAULT_PATHS): VerdictPath => {
      const text = j.verdict?.[key] ?? DEFAULT_PATHS[key];
      const parsed = parsePath(text);
      if (!parsed.ok) issues.push({ pointer: `${at}/verdict/${key}`, message: `judges.${name}.verdict.${key}: ${parsed.error}` });
      return { text, segments: parsed.ok ? parsed.value : [] };
    };
    let timeoutMs = DEFAULT_JUDGE_TIMEOUT_MS;
    if (j.timeout !== undefined) {
      const t = parseDuration(j.timeout);
      if (t.ok && t.value > 0) timeoutMs = t.value;
      else issues.push({ pointer: `${at}/timeout`, message: `judges.${name}.timeout: ${t.ok ? 'must be more than 0' : t.error}` });
    }
    judges[name] = {
      name,
      flow: j.flow,
      role: j.role ?? j.flow,
      inputs: j.inputs ?? { ...DEFAULT_JUDGE_INPUTS },
      verdict: { pass: path('pass'), score: path('score'), reason: path('reason') },
      timeoutMs,
      until: j.until?.node !== undefined || j.until?.messages !== undefined ? { ...j.until } : { messages: 1 },
    };
  }
  return { judges, issues };
}
