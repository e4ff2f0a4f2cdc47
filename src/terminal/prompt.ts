import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * Ask a question on the terminal and read one line. Only the exact answer `yes` is a yes, as in
 * Terraform; end of input and Ctrl-C are a no.
 */
export function confirm(input: Readable, output: Writable, question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: false });
    let settled = false;
    const finish = (answer: boolean): void => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(answer);
    };
    rl.once('line', (line) => finish(line.trim() === 'yes'));
    rl.once('SIGINT', () => finish(false));
    rl.once('close', () => finish(false));
    // Asked only once the answer can be heard: input may arrive the moment the question is out.
    output.write(`${question} `);
  });
}
