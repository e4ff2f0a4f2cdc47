// The Action's entry point (action/build.mjs bundles it into action/dist/index.js). `run()` reads
// the runner's environment through @actions/core and returns the exit code.
import { run } from './main.js';

run().then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
