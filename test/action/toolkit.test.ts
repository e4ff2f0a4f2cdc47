import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextPage } from '../../action/src/github.js';
import { optionValue, splitArgs } from '../../action/src/inputs.js';
import { Toolkit } from '../../action/src/toolkit.js';
import { parseOutputs } from './run-action.js';

function kit(env: Record<string, string> = {}): { kit: Toolkit; log: () => string } {
  const lines: string[] = [];
  return { kit: new Toolkit(env, (text) => lines.push(text)), log: () => lines.join('') };
}

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

describe('workflow commands and outputs', () => {
  it('escapes annotation messages and properties as the runner reads them', () => {
    const { kit: k, log } = kit();
    k.error('50% done\nnext line', { file: 'roles/a,b:c.md', line: 3, col: 1, title: 'x: y' });
    expect(log()).toBe('::error file=roles/a%2Cb%3Ac.md,line=3,col=1,title=x%3A y::50%25 done%0Anext line\n');
  });

  it('masks a secret, then redacts it from everything written', () => {
    const { kit: k, log } = kit();
    k.setSecret('s3cr3t-value');
    k.info('token is s3cr3t-value');
    k.warning('again s3cr3t-value');
    expect(log()).toBe('::add-mask::s3cr3t-value\ntoken is ***\n::warning::again ***\n');
  });

  it('writes multi-line outputs with a heredoc delimiter, redacted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'roleflow-toolkit-'));
    try {
      const file = join(dir, 'output');
      const { kit: k } = kit({ GITHUB_OUTPUT: file });
      k.setSecret('hunter22');
      k.setOutput('plan-file', '/tmp/plan.json');
      k.setOutput('note', 'line one\nhunter22 line two');
      expect(parseOutputs(readFileSync(file, 'utf8'))).toEqual({ 'plan-file': '/tmp/plan.json', note: 'line one\n*** line two' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads boolean inputs strictly', () => {
    const { kit: k } = kit({ INPUT_COMMENT: 'False', 'INPUT_FAIL-ON-CHANGES': 'yes' });
    expect(k.getBooleanInput('comment', true)).toBe(false);
    expect(k.getBooleanInput('missing', true)).toBe(true);
    expect(() => k.getBooleanInput('fail-on-changes', false)).toThrow('input "fail-on-changes" must be true or false, not "yes"');
  });
});

describe('comment pages', () => {
  it('follows rel="next" on the API origin only, so the token never goes elsewhere', () => {
    const api = 'http://127.0.0.1:8080';
    expect(nextPage('<http://127.0.0.1:8080/x?page=2>; rel="next", <http://127.0.0.1:8080/x?page=9>; rel="last"', api)).toBe('http://127.0.0.1:8080/x?page=2');
    expect(nextPage('<https://evil.example/x?page=2>; rel="next"', api)).toBeUndefined();
    expect(nextPage('<http://127.0.0.1:8080/x?page=1>; rel="prev"', api)).toBeUndefined();
    expect(nextPage(undefined, api)).toBeUndefined();
  });
});
