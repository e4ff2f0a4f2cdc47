import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on a CLI process or the emulator's sockets, not on the CPU: one worker more
    // than the cores keeps them busy (vitest's default, one fewer, left a 2-core machine half idle).
    maxWorkers: availableParallelism() + 1,
    // HOME and XDG_* in a temporary folder for every test process and the processes they start.
    globalSetup: ['./test/support/temp-home.ts'],
    // Type tests (test/**/*.test-d.ts, expectTypeOf) run through tsc on the whole project, as
    // citty's do: a type error anywhere, sources included, fails the suite.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    reporters: ['default', './test/support/closing-line.ts'],
    // clipanion's ESM build imports a directory (`./platform`), which Node's resolver refuses
    // unless vite transforms the package itself.
    server: { deps: { inline: ['clipanion'] } },
  },
});
