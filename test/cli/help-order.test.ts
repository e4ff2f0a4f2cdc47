import { Cli } from 'clipanion';
import { describe, expect, it } from 'vitest';
import { asciiCollation, buildCli, namePlaceholders } from '../../src/cli.js';
import { runCli } from '../helpers/cli.js';

// `roleflow --help` is rendered by clipanion, with its list sorted by asciiCollation instead of
// ICU's collation (loading ICU's data is ~10 ms of every --help), and printed without building a
// parser of every command. Both must change nothing a user sees.

describe('the list of commands in --help', () => {
  it.each([false, true])('is the text clipanion renders with ICU collation (colours: %s)', (colors) => {
    const cli = buildCli({ colors });
    // Cli.prototype.usage is clipanion's own, with String.prototype.localeCompare as it is.
    expect(cli.usage()).toBe(namePlaceholders(Cli.prototype.usage.call(cli)));
    expect(cli.usage()).toContain('roleflow plan');
  });

  it("orders every category and usage line of roleflow's as ICU's 'en' collation does", () => {
    const texts = buildCli({ colors: false })
      .definitions()
      .flatMap((d) => [d.usage, d.category ?? ''])
      .filter((t) => t !== '');
    expect(texts.length).toBeGreaterThan(10);
    const icu = (a: string, b: string) => Math.sign(a.localeCompare(b, 'en', { usage: 'sort', caseFirst: 'upper' }));
    for (const a of texts) for (const b of texts) expect(Math.sign(asciiCollation.call(a, b)), `${a} / ${b}`).toBe(icu(a, b));
    // Called on a String object too (what \`this\` is outside strict mode), equal texts are equal.
    // eslint-disable-next-line no-new-wrappers
    for (const a of texts) expect(asciiCollation.call(new String(a) as unknown as string, a)).toBe(0);
  });

  it('leaves String.prototype.localeCompare as it was', () => {
    const before = String.prototype.localeCompare;
    buildCli({ colors: false }).usage();
    expect(String.prototype.localeCompare).toBe(before);
    expect('a'.localeCompare('B', 'en')).toBe(-1);
  });

  it.each([['--help'], ['-h']])('%s alone prints what clipanion\'s help command prints, and exits 0', async (flag) => {
    const alone = await runCli([flag]);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toBe('');
    // What clipanion's route gives: parse the arguments, run the help command it picks.
    let printed = '';
    const stdout = { write: (text: string) => ((printed += text), true) };
    const code = await buildCli({ colors: false }).run([flag], { ...Cli.defaultContext, stdout } as never);
    expect({ code, stdout: printed }).toEqual({ code: 0, stdout: alone.stdout });
    expect(alone.stdout).toContain('roleflow validate');
  });
});
