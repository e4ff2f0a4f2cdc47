import * as core from '@actions/core';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { checkTenantInputs, parseTenantNames, type PromoteInputs, type TenantSelection } from './tenants/tenant-inputs.js';
import { ActionInputError, type Toolkit } from './toolkit.js';

const COMMANDS = ['plan', 'apply', 'test', 'merge', 'promote', 'preview', 'drift'] as const;
export type ActionCommand = (typeof COMMANDS)[number];

/** The `with:` of the step, checked (see action.yml for what each means). */
export interface ActionInputs {
  command: ActionCommand;
  args: string[];
  /** The `tenant` (one name per line) and `all-tenants` inputs. */
  tenants: TenantSelection;
  /** `command: promote`'s `from`, `to` and `report`. */
  promote: PromoteInputs | undefined;
  /** Absolute. */
  workingDirectory: string;
  githubToken: string;
  comment: boolean;
  /** plan: exit 2 (changes) fails the step. Default: when `args` ask for `--detailed-exitcode`. */
  failOnChanges: boolean;
  /** plan: where to save the plan; apply: the saved plan to carry out. '' when not given. */
  planFile: string;
  /** test, merge: a JSON report to judge relative budgets and compare with. '' when not given. */
  baseline: string;
  /** test, merge: where to write the HTML report. '' when not wanted. */
  htmlReport: string;
  /** test, merge: fail the step on a significant regression or a newly failing test. */
  failOnRegression: boolean;
  /** test, merge: `report compare --threshold`. '' for roleflow's default. */
  regressionThreshold: string;
  /** preview: the git ref of the base Roles. '' for the pull request's base commit. */
  base: string;
  /** plan, apply, promote: `--allow` values (the `allow` input's lines and `--allow` in `args`), passed only once an approver approved. */
  allows: string[];
  /** drift: `issue` keeps one GitHub issue per tenant; '' notifies nobody. */
  notify: '' | 'issue';
}

/**
 * Read and check the inputs. The GitHub token is masked before anything else is read or printed,
 * so even a message about a bad input cannot show it.
 */
export function readInputs(kit: Toolkit): ActionInputs {
  const githubToken = core.getInput('github-token');
  kit.setSecret(githubToken);
  const command = COMMANDS.find((c) => c === core.getInput('command'));
  if (command === undefined) throw new ActionInputError(`input "command" must be plan, apply, test, merge, promote, preview or drift, not "${kit.redact(core.getInput('command'))}"`);
  // `--allow` in args counts only as the `allow` input does: taken out, and passed once approved.
  const { rest: args, allows: argAllows } = takeAllows(splitArgs(core.getInput('args')));
  const allows = [...core.getInput('allow').split('\n').map((l) => l.trim()).filter((l) => l !== ''), ...argAllows];
  const workspace = kit.env['GITHUB_WORKSPACE'] || process.cwd();
  const dir = core.getInput('working-directory') || '.';
  const workingDirectory = isAbsolute(dir) ? dir : resolve(workspace, dir);
  if (!isDirectory(workingDirectory)) throw new ActionInputError(`input "working-directory": ${dir} is not a folder`);
  const tenants = { names: parseTenantNames(core.getInput('tenant')), all: getBooleanInput('all-tenants', false, kit) };
  const promote = checkTenantInputs(command, tenants, { from: core.getInput('from'), to: core.getInput('to'), report: core.getInput('report') });
  const notify = core.getInput('notify');
  if (notify !== '' && notify !== 'issue') throw new ActionInputError(`input "notify" must be issue (or empty), not "${kit.redact(notify)}"`);
  if (notify !== '' && command !== 'drift') throw new ActionInputError(`input "notify" is for command: drift, not ${command}`);
  return {
    command,
    args,
    tenants,
    promote,
    workingDirectory,
    githubToken,
    comment: getBooleanInput('comment', true, kit),
    failOnChanges: getBooleanInput('fail-on-changes', args.includes('--detailed-exitcode'), kit),
    planFile: core.getInput('plan-file'),
    baseline: core.getInput('baseline'),
    htmlReport: core.getInput('html-report'),
    failOnRegression: getBooleanInput('fail-on-regression', false, kit),
    regressionThreshold: core.getInput('regression-threshold'),
    base: core.getInput('base'),
    allows,
    notify,
  };
}

/** `args` without its `--allow VALUE` / `--allow=VALUE`, and those values. */
export function takeAllows(args: readonly string[]): { rest: string[]; allows: string[] } {
  const rest: string[] = [];
  const allows: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--allow' && i + 1 < args.length) allows.push(args[++i]!);
    else if (arg.startsWith('--allow=')) allows.push(arg.slice('--allow='.length));
    else rest.push(arg);
  }
  return { rest, allows };
}

/**
 * `args` split as a POSIX shell splits words, without expansion: blanks and new lines separate,
 * '…' is literal, "…" and a backslash escape. So `--grep "refund policy"` is two arguments.
 */
export function splitArgs(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (ch === '\\' && i + 1 < text.length && (quote === undefined || /["\\$`]/.test(text[i + 1]!))) {
      word = (word ?? '') + text[++i];
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote !== undefined) throw new ActionInputError(`input "args": a ${quote === '"' ? 'double' : 'single'} quote is not closed`);
  if (word !== undefined) words.push(word);
  return words;
}

/** The value of `--name VALUE` or `--name=VALUE` in `args`, the last one winning as in the CLI. */
export function optionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg === name && i + 1 < args.length) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

/** A YAML 1.2 core-schema boolean input; `fallback` when empty. Anything else is a usage error. */
function getBooleanInput(name: string, fallback: boolean, kit: Toolkit): boolean {
  if (core.getInput(name) === '') return fallback;
  try {
    return core.getBooleanInput(name);
  } catch {
    throw new ActionInputError(`input "${name}" must be true or false, not "${kit.redact(core.getInput(name))}"`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
