import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sameOrigin } from '../../action/src/github.js';
import { optionValue, readInputs, splitArgs } from '../../action/src/inputs.js';
import { Toolkit } from '../../action/src/toolkit.js';
import { parseOutputs } from './run-action.js';

// The Toolkit writes through @actions/core, which reads process.env and writes to process.stdout:
// both are captured here, and the runner's files live in a fresh folder.
let dir: string;
let written: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'roleflow-toolkit-'));
  written = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((text: string | Uint8Array) => {
    written.push(String(text));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});
const log = (): string => written.join('');

describe('the args input', () => {
  it('splits like a shell: blanks and new lines separate, quotes group, backslashes escape', () => {
    expect(splitArgs('--prune   --roles tenants/acme/roles')).toEqual(['--prune', '--roles', 'tenants/acme/roles']);
    expect(splitArgs('--grep "refund policy"\n--shard 1/4')).toEqual(['--grep', 'refund policy', '--shard', '1/4']);
    expect(splitArgs(`--grep 'a "quoted" word' --x=""`)).toEqual(['--grep', 'a "quoted" word', '--x=']);
    expect(splitArgs('a\\ b "c\\"d" \'$HOME\'')).toEqual(['a b', 'c"d', '$HOME']);
    expect(splitArgs('  ')).toEqual([]);
  });

  it('refuses an unclosed quote in one line', () => {
    expect(() => splitArgs('--grep "refund')).toThrow('input "args": a double quote is not closed');
  });

  it('finds an option value in either form, the last one winning', () => {
    expect(optionValue(['--config', 'a.yaml', '--config=b.yaml'], '--config')).toBe('b.yaml');
    expect(optionValue(['--tenant', 'staging'], '--tenant')).toBe('staging');
    expect(optionValue(['--tenant'], '--tenant')).toBeUndefined();
  });
});

describe('workflow commands and outputs, through @actions/core', () => {
  it('escapes annotation messages and properties as the runner reads them', () => {
    new Toolkit().error('50% done\nnext line', { file: 'roles/a,b:c.md', line: 3, col: 1, title: 'x: y' });
    expect(log()).toBe('::error title=x%3A y,file=roles/a%2Cb%3Ac.md,line=3,col=1::50%25 done%0Anext line\n');
  });

  it('masks a secret line by line, then redacts it from everything written, control characters escaped', () => {
    const kit = new Toolkit();
    kit.setSecret('s3cr3t-value');
    kit.setSecret('key-line-one\nkey-line-two');
    kit.info('token is s3cr3t-value\u001b[2J');
    kit.warning('again s3cr3t-value');
    kit.notice('and s3cr3t-value', { title: 'about s3cr3t-value' });
    kit.debug('debug s3cr3t-value');
    expect(log()).toBe(
      '::add-mask::s3cr3t-value\n::add-mask::key-line-one\n::add-mask::key-line-two\ntoken is ***\\u001b[2J\n::warning::again ***\n::notice title=about ***::and ***\n::debug::debug ***\n',
    );
  });

  it('folds a group and stops commands around untrusted text with a fresh token', async () => {
    const kit = new Toolkit();
    await kit.group('roleflow plan', () => kit.untrusted(() => kit.info('::warning::not a command')));
    const lines = log().split('\n');
    expect(lines[0]).toBe('::group::roleflow plan');
    const token = /^::stop-commands::(roleflow-[0-9a-f-]{36})$/.exec(lines[1]!)?.[1];
    expect(token).toBeDefined();
    expect(lines.slice(2)).toEqual(['::warning::not a command', `::${token}::`, '::endgroup::', '']);
  });

  it('writes multi-line outputs with a heredoc delimiter, redacted', () => {
    const file = join(dir, 'output');
    writeFileSync(file, '');
    vi.stubEnv('GITHUB_OUTPUT', file);
    const kit = new Toolkit();
    kit.setSecret('hunter22');
    kit.setOutput('plan-file', '/tmp/plan.json');
    kit.setOutput('note', 'line one\nhunter22 line two');
    expect(parseOutputs(readFileSync(file, 'utf8'))).toEqual({ 'plan-file': '/tmp/plan.json', note: 'line one\n*** line two' });
  });

  it('appends to the job summary, redacted, and says when there is none', async () => {
    const file = join(dir, 'summary.md');
    writeFileSync(file, '# before\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', file);
    const kit = new Toolkit();
    kit.setSecret('hunter22');
    expect(await kit.appendSummary('| a | hunter22 |')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('# before\n| a | *** |\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    expect(await kit.appendSummary('more')).toBe(false);
  });

  it('reads boolean inputs strictly, in one line that names the input', () => {
    vi.stubEnv('INPUT_COMMAND', 'plan');
    vi.stubEnv('GITHUB_WORKSPACE', dir);
    vi.stubEnv('INPUT_COMMENT', 'False');
    expect(readInputs(new Toolkit())).toMatchObject({ command: 'plan', comment: false, failOnChanges: false, workingDirectory: dir });
    vi.stubEnv('INPUT_FAIL-ON-CHANGES', 'yes');
    expect(() => readInputs(new Toolkit())).toThrow('input "fail-on-changes" must be true or false, not "yes"');
  });
});

describe('the GitHub client', () => {
  it('sends the token only to the API\'s origin (a next page is followed as the Link header gives it)', () => {
    const api = 'http://127.0.0.1:8080';
    expect(sameOrigin('http://127.0.0.1:8080/x?page=2', api)).toBe(true);
    expect(sameOrigin('https://evil.example/x?page=2', api)).toBe(false);
    expect(sameOrigin('http://127.0.0.1:8081/x', api)).toBe(false);
    expect(sameOrigin('https://api.github.com/x', 'http://api.github.com')).toBe(false);
  });
});
