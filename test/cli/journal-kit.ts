import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { readJournal, type JournalRecord } from '../../src/core/apply/history/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { emulator, project, roleText, TOKEN, type Project } from './roles-kit.js';

const exec = promisify(execFile);

/** A git repository whose config has tenant `prod` (an emulator on 127.0.0.1), for the journal's tests. */
export interface JournalRepo {
  p: Project;
  em: RunningEmulator;
  /** `roleflow ARGS` in the repository, with the token (and `env`) set. */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Write these role files (name → content; null removes it), commit, and return the commit. */
  commit(roles: Record<string, string | null>, message?: string): Promise<string>;
  git(args: string[]): Promise<string>;
  /** The journal of `prod` (the file store), folded. */
  journal(): Promise<JournalRecord[]>;
}

/** `config`: more lines for roleflow.config.yaml (`history: …`, `roles: …`). */
export async function journalRepo(config = '', options: EmulatorOptions = {}): Promise<JournalRepo> {
  const em = await emulator(options);
  const p = await project({ 'roleflow.config.yaml': `tenants:\n  prod: { base_url: "${em.baseUrl}", ws_url: "${em.wsUrl}" }\ndefault_tenant: prod\n${config}`, '.gitignore': '.roleflow/\n' });
  const git = async (args: string[]) => (await exec('git', args, { cwd: p.dir })).stdout.trim();
  await git(['init', '-q', '-b', 'main']);
  await git(['config', 'user.email', 'dev@example.com']);
  await git(['config', 'user.name', 'Dev Eloper']);
  const commit = async (roles: Record<string, string | null>, message = 'roles') => {
    for (const [name, content] of Object.entries(roles)) {
      if (content === null) await git(['rm', '-q', `roles/${name}.md`]);
      else await p.write(`roles/${name}.md`, roleText(name, `${name} role`, content));
    }
    await git(['add', '-A']);
    await git(['commit', '-q', '--allow-empty', '-m', message]);
    return git(['rev-parse', 'HEAD']);
  };
  return {
    p,
    em,
    git,
    commit,
    cli: (args, env = {}) => runCli(args, { cwd: p.dir, env: { ROLEFLOW_TOKEN: TOKEN, ...env } }),
    journal: async () => readJournal(await readFile(join(p.dir, '.roleflow/history/prod.jsonl'), 'utf8').catch(() => '')).records,
  };
}
