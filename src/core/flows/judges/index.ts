/**
 * Judges that are Roles (PRODUCT.md "Judges and similarity"), the pure core: the config's
 * `judges:` (`parseJudges`), the judge flow's inputs for one output (`judgeInputs`), the digest a
 * verdict is found again by (`verdictDigest`), one execution's vote (`readVote`) and the majority
 * of the votes (`majority`). `run/judges.ts` runs the judge flows.
 */
export { DEFAULT_JUDGE_INPUTS, parseJudges, type JudgeConfig, type RawJudge, type VerdictPath } from './config.js';
export { judgeInputs, majority, outputText, readVote, verdictDigest, type Vote } from './verdict.js';
export { judgeAgreement, parseJudgeCases, renderAgreementText, type JudgeAgreement, type JudgeCase } from './cases.js';
