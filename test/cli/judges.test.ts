import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { outputProblems } from '../helpers/output-schemas.js';
import { project } from './roles-kit.js';

// The embedded tenant's built-in flows: `echo` answers its inputs, `rubric-judge` grades an output
// by the words of its rubric (emulator-flows.yaml).
const CONFIG = 'judges:\n  rubric: { flow: rubric-judge }\n';
const FLOW = `flow: echo
transport: ws
defaults: { until: { messages: 1 } }
tests:
  - name: apologises
    inputs: { reply: "We apologise, Ada: your refund is on its way" }
    expect:
      outputs:
        - { path: "results[0].reply", judge: rubric, rubric: "apologises for the refund", votes: 3 }
  - name: shrugs
    inputs: { reply: "Not our problem." }
    expect:
      outputs:
        - { path: "results[0].reply", judge: rubric, rubric: "apologises for the refund" }
`;

interface JudgeJson {
  judge: string;
  verdict: string;
  score?: number;
  reasons: string[];
  digest: string;
  cached?: boolean;
  executions: { connection_id?: string; message_ids?: string[] }[];
}

function judgesOf(report: { results: { name: string; repeats: { assertions: { judge?: JudgeJson; status: string }[] }[] }[] }, name: string) {
  return report.results.find((r) => r.name === name)!.repeats[0]!.assertions.find((a) => a.judge !== undefined || a.status === 'skip')!;
}

describe('judge assertions against the embedded tenant\'s judge flow', () => {
  it('pass and fail as the rubric says, with reasons and execution ids in JSON, JUnit and HTML', async () => {
    const p = await project({ 'roleflow.config.yaml': CONFIG, 'flows/reply.yaml': FLOW });
    const r = await runCli(['test', '--reporter', 'console', '--reporter', 'json=r.json', '--reporter', 'junit=j.xml', '--reporter', 'html=r.html'], { cwd: p.dir });
    expect(r.code).toBe(3);
    const report = JSON.parse(await p.read('r.json'));
    const good = judgesOf(report, 'apologises') as { status: string; judge: JudgeJson };
    expect(good.status).toBe('pass');
    expect(good.judge).toMatchObject({ judge: 'rubric', verdict: 'pass', score: 1, digest: expect.stringMatching(/^sha256:/) });
    expect(good.judge.reasons).toEqual(Array(3).fill('2 of 2 rubric words found: apologises, refund'));
    expect(good.judge.executions).toHaveLength(3);
    expect(good.judge.executions.every((e) => typeof e.connection_id === 'string' && e.message_ids!.length > 0)).toBe(true);
    const bad = judgesOf(report, 'shrugs') as { status: string; judge: JudgeJson };
    expect(bad.status).toBe('fail');
    expect(bad.judge).toMatchObject({ verdict: 'fail', score: 0, reasons: ['0 of 2 rubric words found; missing: apologises, refund'] });

    const junit = await p.read('j.xml');
    expect(junit).toContain('judge rubric on results[0].reply judge &quot;rubric&quot;: pass score 1'.replace(/&quot;/g, '"'));
    expect(junit).toContain('reason: 0 of 2 rubric words found; missing: apologises, refund');
    expect(junit).toContain(`judge executions: connectionId ${good.judge.executions[0]!.connection_id}`);
    const html = await p.read('r.html');
    expect(html).toContain('judge rubric: <b class="fail">fail</b>');
    expect(html).toContain(good.judge.executions[2]!.connection_id!);
    expect(r.stdout).toContain('judge rubric failed it');
  });

  it('--no-judge skips them, never passes them; --baseline reuses the verdicts by digest', async () => {
    const p = await project({ 'roleflow.config.yaml': CONFIG, 'flows/reply.yaml': FLOW });
    const skipped = await runCli(['test', '--no-judge', '--reporter', 'json=r.json'], { cwd: p.dir });
    expect(skipped.code).toBe(0);
    const report = JSON.parse(await p.read('r.json'));
    expect(judgesOf(report, 'apologises')).toMatchObject({ status: 'skip', message: expect.stringContaining('--no-judge: judge assertions are skipped, never passed') });
    expect(report.summary).toMatchObject({ passed: 0, skipped: 2 });

    await runCli(['test', '--reporter', 'json=first.json'], { cwd: p.dir });
    const again = await runCli(['test', '--baseline', 'first.json', '--reporter', 'json=second.json'], { cwd: p.dir });
    expect(again.code).toBe(3);
    const first = judgesOf(JSON.parse(await p.read('first.json')), 'apologises') as { judge: JudgeJson };
    const second = judgesOf(JSON.parse(await p.read('second.json')), 'apologises') as { judge: JudgeJson };
    expect(second.judge).toEqual({ ...first.judge, cached: true });
  });

  it('--judges reports how often each judge agrees with its labelled outputs', async () => {
    const p = await project({
      'roleflow.config.yaml': CONFIG,
      'flows/reply.yaml': FLOW,
      'flows/_judges/rubric.yaml': `judge: rubric
cases:
  - { name: apology, output: "We apologise for the late refund", rubric: "apologises for the refund", label: good }
  - { name: rude, output: "Go away", rubric: "apologises for the refund", label: bad }
  - { name: mislabelled, output: "Go away", rubric: "apologises for the refund", label: good }
`,
    });
    const r = await runCli(['test', '--judges'], { cwd: p.dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('judge rubric: agrees with 2 of 3 labels (67%)');
    expect(r.stdout).toMatch(/flows\/_judges\/rubric\.yaml:5: "mislabelled" is labelled good, judged fail: 0 of 2 rubric words found/);
    const json = await runCli(['test', '--judges', '--json'], { cwd: p.dir });
    expect(JSON.parse(json.stdout).judges[0]).toMatchObject({ judge: 'rubric', cases: 3, agreed: 2 });
    expect(outputProblems('judges', JSON.parse(json.stdout))).toBe('');
    // The judge cases are not flow tests: validate and test leave the folder alone.
    expect((await runCli(['validate'], { cwd: p.dir })).code).toBe(0);
  });

  it('an unknown judge is an error at the assertion, before anything runs', async () => {
    const p = await project({ 'roleflow.config.yaml': CONFIG, 'flows/reply.yaml': FLOW.replace('judge: rubric, rubric: "apologises for the refund", votes: 3', 'judge: rubrik, rubric: x') });
    const r = await runCli(['test'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('flows/reply.yaml:9:11: judge: no judge named "rubrik" in the config\'s judges: (did you mean "rubric"?)');
  });
});
