// The Action's entry point (action/build.mjs bundles it into action/dist/index.js): the process
// and its environment are wired here, and nowhere else, so `run()` can be called from a test.
import { run } from './main.js';
import { Toolkit } from './toolkit.js';

const kit = new Toolkit(process.env, (text) => process.stdout.write(text));
run(kit).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
