import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/core/text/schema.js';
import { runBin, runCli } from '../helpers/cli.js';
import { project } from './roles-kit.js';

const CONFIG = `policy:
  roles:
    max_chars: 60
    forbid: ["internal.example.com", "/TODO:/"]
    must_include: ["Never reveal"]
    name: "^[a-z][a-z0-9-]*$"
    description: required
  flows: { require_assertions: true, max_repeat: 20 }
`;

// Each file breaks one rule, on a known line and column.
const FILES = {
  'roleflow.config.yaml': CONFIG,
  'roles/ok.md': '---\nname: ok\ndescription: fine\n---\nHelp. Never reveal\n',
  'roles/long.md': `---\nname: long\ndescription: d\n---\nNever reveal\n${'x'.repeat(60)}\n`,
  'roles/url.md': '---\nname: url\ndescription: d\n---\nNever reveal\nsee https://internal.example.com/a\n',
  'roles/include.md': '---\nname: include\ndescription: d\n---\nHello\n',
  'roles/Bad_Name.md': '---\nname: Bad_Name\ndescription: d\n---\nNever reveal\n',
  'roles/nodesc.md': '---\nname: nodesc\ndescription: ""\n---\nNever reveal\n',
  'flows/f.yaml': 'flow: echo\ntests:\n  - name: empty\n  - name: many\n    repeat: 40\n    expect: { outputs: [{ path: results, exists: true }] }\n',
};

const EXPECTED = [
  ['roles/Bad_Name.md', 2, 1, 'name'],
  ['roles/include.md', 5, 1, 'must_include'],
  ['roles/long.md', 6, 48, 'max_chars'],
  ['roles/nodesc.md', 3, 14, 'description'],
  ['roles/url.md', 6, 13, 'forbid'],
  ['flows/f.yaml', 3, 5, 'require_assertions'],
  ['flows/f.yaml', 5, 13, 'max_repeat'],
].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : Number(a[1]) - Number(b[1])));

describe('roleflow lint', () => {
  it('text: each rule\'s violation at its file:line:col, exit 1 on an error', async () => {
    const p = await project(FILES);
    const r = await runCli(['lint'], { cwd: p.dir });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, -1).map((l) => /^(\S+?):(\d+):(\d+): error (\S+):/.exec(l)!.slice(1).map((x, i) => (i === 1 || i === 2 ? Number(x) : x)))).toEqual(EXPECTED);
    expect(lines.at(-1)).toBe('7 findings in 6 role files and 1 flow test file: 0 hard, 7 error, 0 warn.');
  });

  it('json and sarif carry the same findings at the same places', async () => {
    const p = await project(FILES);
    const json = await runCli(['lint', '--format', 'json'], { cwd: p.dir });
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as { format_version: number; findings: { file: string; line: number; column: number; rule: string; level: string }[] };
    expect(doc.format_version).toBe(1);
    expect(compileSchema(JSON.parse(readFileSync(new URL('../../schemas/lint.schema.json', import.meta.url), 'utf8')) as object)(doc)).toBe(true);
    expect(doc.findings.map((f) => [f.file, f.line, f.column, f.rule])).toEqual(EXPECTED);
    const sarif = await runCli(['lint', '--format', 'sarif'], { cwd: p.dir });
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[] };
    expect(log.runs[0]!.results.map((x) => [x.locations[0]!.physicalLocation.artifactLocation.uri, x.locations[0]!.physicalLocation.region.startLine, x.locations[0]!.physicalLocation.region.startColumn, x.ruleId])).toEqual(EXPECTED);
  });

  it('sarif names files from the top of the git checkout, as code scanning reads them, whatever folder lint ran in', async () => {
    const p = await project(FILES);
    await promisify(execFile)('git', ['init', '-q'], { cwd: p.dir });
    const sarif = await runCli(['lint', '--format', 'sarif'], { cwd: join(p.dir, 'roles') });
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    expect([...new Set(log.runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri))]).toEqual([...new Set(EXPECTED.map((e) => e[0]))]);
    // The text keeps paths from where it ran, for the terminal.
    expect((await runCli(['lint'], { cwd: join(p.dir, 'roles') })).stdout).toContain('../flows/f.yaml:');
  });

  it('a pasted token is an error, never printed; warn-level findings alone exit 0', async () => {
    const token = 'tok-9f8e7d6c5b4a-live';
    const p = await project({
      'roleflow.config.yaml': 'policy:\n  roles: { max_chars: 5, level: warn }\n',
      'roles/a.md': `---\nname: a\ndescription: d\n---\nuse ${token}\n`,
    });
    const bad = await runCli(['lint', 'roles/a.md'], { cwd: p.dir, env: { ROLEFLOW_TOKEN: token } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('roles/a.md:5:5: error secrets: content holds the value of ROLEFLOW_TOKEN');
    expect(bad.stdout + bad.stderr).not.toContain(token);
    const warned = await runCli(['lint', 'roles/a.md'], { cwd: p.dir, env: {} });
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain('warn max_chars');
  });

  it('a plugin maps the parsed files to findings; a broken plugin is one line', async () => {
    const p = await project({
      'roleflow.config.yaml': 'policy:\n  plugins: [./policies/no-urls.mjs]\n',
      'roles/a.md': '---\nname: a\ndescription: d\n---\nhi\nsee http://x.example\n',
      'policies/no-urls.mjs':
        "export default (input) => input.kind !== 'files' ? [] : input.roles.filter((r) => /https?:/.test(r.content)).map((r) => ({ rule: 'no-urls', file: r.file, line: r.contentLine + 1, column: 5, message: 'a URL in Role ' + r.name }));\n",
    });
    const r = await runCli(['lint', '--json'], { cwd: p.dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings).toEqual([{ rule: 'no-urls', level: 'error', file: 'roles/a.md', line: 6, column: 5, message: 'a URL in Role a' }]);
    await p.write('policies/broken.mjs', 'export default () => [{ rule: "x" }];\n');
    await p.write('roleflow.config.yaml', 'policy:\n  plugins: [./policies/broken.mjs]\n');
    const broken = await runCli(['lint'], { cwd: p.dir });
    expect(broken).toMatchObject({ code: 1, stdout: '' });
    expect(broken.stderr).toMatch(/policy plugin \.\/policies\/broken\.mjs: finding 1 needs a rule and a message/);
  });

  it('a plugin whose promise never settles is an error, not a silent success', async () => {
    const p = await project({
      'roleflow.config.yaml': 'policy:\n  plugins: [./policies/stuck.mjs]\n',
      'roles/a.md': '---\nname: a\ndescription: d\n---\nhi\n',
      'policies/stuck.mjs': 'export default () => new Promise(() => {});\n',
    });
    // The built CLI as a process: what ends it is the event loop running dry.
    const r = await runBin(['lint'], { cwd: p.dir });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/^error: [^\n]*never settle[^\n]*\n$/);
  });

  it('no findings: exit 0, said so', async () => {
    const p = await project({ 'roles/a.md': '---\nname: a\ndescription: d\n---\nhi\n' });
    expect(await runCli(['lint'], { cwd: p.dir })).toEqual({ code: 0, stdout: 'No findings in 1 role file and 0 flow test files.\n', stderr: '' });
  });
});
