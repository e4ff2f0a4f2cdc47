// `npm start`: the main job against the embedded tenant, start to finish.
// validate → plan → apply → plan again (no changes) → flow tests → a Role changed and applied →
// the flow test that uses it fails. Each step is the real CLI.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const config = 'scripts/demo.config.yaml';
const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (s) => `\x1b[1m${s}\x1b[0m` : (s) => s;

// The demo's own embedded tenant starts empty each time, so the first plan always has something to do.
rmSync(new URL('../.roleflow/demo.json', import.meta.url), { force: true });

// A copy of roles/ (in the git-ignored .roleflow/) whose summarizer has another description: the
// summarize flow's llm step runs with that Role, and flows/summarize.yaml asserts on it.
const edited = '.roleflow/demo-roles';
rmSync(new URL(`../${edited}`, import.meta.url), { recursive: true, force: true });
cpSync(new URL('../roles', import.meta.url), new URL(`../${edited}`, import.meta.url), { recursive: true });
const summarizer = new URL(`../${edited}/summarizer.md`, import.meta.url);
writeFileSync(summarizer, readFileSync(summarizer, 'utf8').replace(/^description: .*$/m, 'description: Summarizes tickets in one line'));

const steps = [
  { title: 'Validate role files and flow tests (offline)', args: ['validate'], ok: [0] },
  { title: 'Plan: what would change on the embedded tenant', args: ['plan', '--detailed-exitcode'], ok: [2] },
  { title: 'Apply the plan', args: ['apply', '--auto-approve'], ok: [0] },
  { title: 'Plan again: the tenant now matches roles/', args: ['plan', '--detailed-exitcode'], ok: [0] },
  { title: 'Run the flow tests over HTTPS and WebSocket', args: ['test'], ok: [0] },
  { title: `Change a Role: apply ${edited}/, where summarizer has another description`, args: ['apply', '--auto-approve', '--roles', edited], ok: [0] },
  {
    title: 'The flow test that uses it now fails (exit 3): the summary carries the new description',
    args: ['test', 'flows/summarize.yaml', '--transport', 'ws', '--quiet'],
    ok: [3],
  },
];

for (const step of steps) {
  console.log(`\n${bold(`▶ ${step.title}`)}\n$ roleflow ${step.args.join(' ')}`);
  const r = spawnSync(process.execPath, [bin, ...step.args, '--config', config], { cwd: root, stdio: 'inherit' });
  if (!step.ok.includes(r.status ?? 1)) {
    console.error(`\nroleflow ${step.args.join(' ')} exited ${r.status}; expected ${step.ok.join(' or ')}`);
    process.exit(1);
  }
}
console.log(`\n${bold('Done.')} See README.md for the pull-request workflow and the GitHub Action.`);
