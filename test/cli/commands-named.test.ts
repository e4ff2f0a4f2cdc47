import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../src/cli.js';
import { commandClasses } from '../../src/commands/index.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from './test-kit.js';

// A run registers only the commands its first word can name (clipanion builds a parser of every
// registered command on each run). What a user sees must not depend on it: each line below gets
// the same answer from the narrowed CLI as from one holding every command.
let temp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  temp = await tempDir('roleflow-commands-named-');
});
afterAll(async () => {
  await temp.cleanup();
});

const paths = commandClasses.flatMap((command) => command.paths ?? []);
const lines: string[][] = [
  ...paths.map((path) => [...path, '--help']),
  ...paths.map((path) => [...path, '--no-such-flag']),
  ...paths.map((path) => [...path, 'extra', 'words', 'here']),
  ['promote'],
  ['history', 'shwo'],
  ['report'],
  ['report', 'comapre', 'a.json'],
  ['plna', '--json'],
  ['valdate'],
  ['help', 'plan'],
  ['help'],
  ['--help'],
  ['--version'],
  ['-v'],
  ['--version', 'extra'],
  [],
];

describe('the commands a run registers', () => {
  it.each(lines.map((argv) => [argv.join(' ') || '(nothing)', argv]))('%s: the same answer as with every command registered', async (_, argv) => {
    const everyCommand = await runInProcess(argv as string[], { cwd: temp.dir, cli: buildCli({ colors: false }) });
    const narrowed = await runInProcess(argv as string[], { cwd: temp.dir, cli: buildCli({ colors: false }, argv as string[]) });
    expect(narrowed).toEqual(everyCommand);
  });

  it('are the commands the first word names, or every one when it names none', () => {
    const registered = (argv: string[]) => buildCli({ colors: false }, argv).definitions().map((d) => d.path);
    expect(registered(['history', 'show', '1'])).toEqual(['roleflow history', 'roleflow history show']);
    expect(registered(['validate'])).toEqual(['roleflow validate']);
    expect(registered(['plna']).length).toBe(commandClasses.length);
    expect(registered(['help', 'plan']).length).toBe(commandClasses.length);
  });
});
