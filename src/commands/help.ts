import { Command, Option } from 'clipanion';
import { RoleflowError } from '../run/ports.js';
import { RoleflowCommand } from './base.js';

export class HelpCommand extends RoleflowCommand {
  static override paths = [['help']];
  static override usage = Command.Usage({
    category: 'Getting started',
    description: 'Show the help of roleflow or of one command',
    details: `
      The same as \`--help\`: \`roleflow help plan\` is \`roleflow plan --help\`, and \`roleflow help\`
      lists every command.
    `,
    examples: [
      ['Every command', 'roleflow help'],
      ['The options and examples of plan', 'roleflow help plan'],
      ['A command of two words', 'roleflow help report merge'],
    ],
  });

  words = Option.Rest({ name: 'COMMAND' });

  async execute(): Promise<number> {
    if (this.words.length === 0) {
      this.context.stdout.write(this.cli.usage());
      return 0;
    }
    const path = `${this.cli.binaryName} ${this.words.join(' ')}`;
    if (!this.cli.definitions().some((d) => d.path === path)) {
      throw new RoleflowError(`unknown command "${this.words.join(' ')}"; roleflow --help lists the commands`);
    }
    return this.cli.run([...this.words, '--help']);
  }
}
