import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { suite } from './test-kit.js';

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
      const reporters = ['console', 'json=r.json', 'junit=r.xml', 'github=summary.md', 'console=console.txt'].flatMap((x) => ['--reporter', x]);
      const r = await s.test(['--base-url', emulator.baseUrl, '--ws-url', emulator.wsUrl, '--verbose', ...reporters], { env });
      expect(r.code).toBe(3);
      const merged = await s.run(['report', 'merge', 'r.json', '--out', 'merged.json', '--reporter', 'github', '--reporter', 'console'], { env });
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
      };
      const forms = [TOKEN, API_KEY, JSON.stringify(API_KEY).slice(1, -1), 'k3y&quot;with&lt;xml&gt;&amp;', encodeURIComponent(API_KEY), 'k3y"with<xml>&%25'];
      for (const [where, text] of Object.entries(texts)) {
        for (const form of forms) expect(text, `${where} holds ${form}`).not.toContain(form);
      }
      // The failure is still shown, with the secrets masked.
      expect(r.stdout).toContain('got {"key":"***","token":"***","note":"key=***"}');
      expect(JSON.parse(texts['r.json']).results[0].repeats[0].outputs).toEqual({ results: [{ key: '***', token: '***', note: 'key=***' }] });
    } finally {
      await emulator.close();
    }
  });
});
