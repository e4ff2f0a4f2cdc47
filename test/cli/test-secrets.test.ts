import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { startEmulator } from '../../src/emulator/index.js';
import { loadSchema } from '../../src/files/package-root.js';
import type { RunReport } from '../../src/report/model.js';
import { findAll, parseXml } from '../report/xml.js';
import { FLOWS_NOTE, runInProcess, suite } from './test-kit.js';

const validReport = compileSchema(loadSchema('report'));

const TOKEN = 'tenant-token-Zq9-4242';
/** Quotes and markup, so that a JSON- or XML-escaped copy would be a different string. */
const API_KEY = 'k3y"with<xml>&%chars';

const LEAKY = `flow: echo
secrets: [API_KEY]
defaults: { timeout: 5s }
tests:
  - name: echoes secrets back
    transport: ws
    until: { messages: 1 }
    inputs: { key: "\${env:API_KEY}", token: "\${env:ROLEFLOW_TOKEN}", note: "key=\${env:API_KEY}" }
    expect:
      outputs:
        - { path: "results[0]", equals: { key: wrong } }
  - name: fails over https
    transport: https
    until: { steps: 1 }
    inputs: { key: "\${env:API_KEY}" }
    expect:
      steps: { count: 2 }
`;

describe('roleflow test and secrets', () => {
  it('never shows the token or a secret variable in any reporter, output or file', async () => {
    const emulator = await startEmulator({ token: TOKEN });
    try {
      const s = await suite({ 'flows/leaky.yaml': LEAKY });
      const env = { ROLEFLOW_TOKEN: TOKEN, API_KEY, GITHUB_STEP_SUMMARY: `${s.dir}/step-summary.md` };
      const reporters = ['console', 'json=r.json', 'junit=r.xml', 'github=summary.md', 'console=console.txt', 'html=r.html'].flatMap((x) => ['--reporter', x]);
      const r = await s.test(['--base-url', emulator.baseUrl, '--ws-url', emulator.wsUrl, '--verbose', ...reporters], { env });
      expect(r.code).toBe(3);
      const merged = await s.run(['report', 'merge', 'r.json', '--out', 'merged.json', '--reporter', 'github', '--reporter', 'console', '--reporter', 'html=merged.html'], { env });
      const texts = {
        stdout: r.stdout,
        stderr: r.stderr,
        'r.json': await s.read('r.json'),
        'r.xml': await s.read('r.xml'),
        'summary.md': await s.read('summary.md'),
        'console.txt': await s.read('console.txt'),
        'step-summary.md': await s.read('step-summary.md'),
        'merge stdout': merged.stdout,
        'merged.json': await s.read('merged.json'),
        'r.html': await s.read('r.html'),
        'merged.html': await s.read('merged.html'),
      };
      const forms = [TOKEN, API_KEY, JSON.stringify(API_KEY).slice(1, -1), 'k3y&quot;with&lt;xml&gt;&amp;', encodeURIComponent(API_KEY), 'k3y"with<xml>&%25'];
      for (const [where, text] of Object.entries(texts)) {
        for (const form of forms) expect(text, `${where} holds ${form}`).not.toContain(form);
      }
      // --verbose has a line for the WebSocket connection as for every HTTPS request.
      expect(r.stderr).toMatch(/^GET \/ws 101 \d+ms$/m);
      expect(r.stderr).toMatch(/^POST \/flow\/echo 200 \d+ms$/m);
      // The failure is still shown, with the secrets masked.
      expect(r.stdout).toContain('got {"key":"***","token":"***","note":"key=***"}');
      expect(JSON.parse(texts['r.json']).results[0].repeats[0].outputs).toEqual({ results: [{ key: '***', token: '***', note: 'key=***' }] });
    } finally {
      await emulator.close();
    }
  });

  it('keeps the summary, the JSON and the JUnit report whole when a secret is a common word, and warns that it is short', async () => {
    const s = await suite({ 'flows/wordy.yaml': WORDY });
    const env = { MY_KEY: 'test' };
    const r = await s.test(['--reporter', 'console', '--reporter', 'json=r.json', '--reporter', 'junit=r.xml'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Tests: 1 passed, 0 failed, 0 skipped (1)');
    expect(r.stderr).toBe(`${SHORT('MY_KEY', 4)}wrote r.json, r.xml\n`);
    const report = JSON.parse(await s.read('r.json')) as RunReport;
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
    expect(report.summary).toMatchObject({ tests: 1, passed: 1 });
    // Inside values the word is masked like any other occurrence of the secret.
    expect(report.results[0]!.name).toBe('a *** of a key');
    expect(findAll(parseXml(await s.read('r.xml')), 'testcase').map((c) => c.attrs['name'])).toEqual(['a *** of a key [https]']);
    const merged = await s.run(['report', 'merge', 'r.json', '--out', 'merged.json'], { env });
    expect(merged).toMatchObject({ code: 0, stderr: 'merged 1 report (1 results); wrote merged.json\n' });

    const json = await s.test(['--json'], { env });
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as RunReport).summary).toMatchObject({ tests: 1, passed: 1 });
  });

  it('runs against a served tenant whose token is a word used in the report', async () => {
    const emulator = await startEmulator({ token: 'summary' });
    try {
      const s = await suite({ 'flows/wordy.yaml': WORDY });
      const env = { ROLEFLOW_TOKEN: 'summary', MY_KEY: 'a-longer-key' };
      const r = await s.test(['--base-url', emulator.baseUrl, '--json'], { env });
      expect(r.stderr).toBe(SHORT('ROLEFLOW_TOKEN', 7));
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as RunReport).summary).toMatchObject({ tests: 1, passed: 1, failed: 0 });
      const text = await s.test(['--base-url', emulator.baseUrl], { env });
      expect(text.stdout).toContain('Tests: 1 passed, 0 failed, 0 skipped (1)');
    } finally {
      await emulator.close();
    }
  });

  it('prints serve --json whole when its token is the name of a key it prints', async () => {
    const s = await suite({});
    const r = await runInProcess(['serve', '--port', '0', '--json', '--token', 'ws_url'], { cwd: s.dir, stopAtOnce: true });
    expect(r.stderr).toBe(`${SHORT('--token', 6)}${FLOWS_NOTE}\n`);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['format_version', 'base_url', 'ws_url']);
  });
});

const WORDY = `flow: echo
secrets: [MY_KEY]
transport: https
tests:
  - name: a test of a key
    until: { steps: 1 }
    inputs: { key: "\${env:MY_KEY}" }
    expect:
      steps: { count: 1 }
`;

function SHORT(name: string, length: number): string {
  return `warning: ${name} is only ${length} characters; it is masked wherever it appears, which may mask ordinary words\n`;
}
