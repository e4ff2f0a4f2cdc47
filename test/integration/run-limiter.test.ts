import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limiter } from '../../src/run/flow-tests.js';

/** Lets every pending promise reaction run (no timers: the order of events is all that is checked). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('the run loop limiter', () => {
  it('runs every task once, never more than the limit at once, starting them in the order asked, each caller getting its own outcome', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        // Per task: whether it fails, and when it ends (tasks end in the order of these ranks).
        fc.array(fc.record({ fails: fc.boolean(), rank: fc.nat(1000) }), { minLength: 0, maxLength: 40 }),
        async (concurrency, tasks) => {
          const limit = limiter(concurrency);
          const started: number[] = [];
          const ends: (() => void)[] = [];
          let running = 0;
          let most = 0;
          const outcomes = tasks.map((task, i) =>
            limit(
              () =>
                new Promise<number>((resolve, reject) => {
                  started.push(i);
                  running += 1;
                  most = Math.max(most, running);
                  ends[i] = () => {
                    running -= 1;
                    if (task.fails) reject(new Error(`task ${i}`));
                    else resolve(i);
                  };
                }),
            ).then(
              (value) => ({ value }),
              (error: Error) => ({ error: error.message }),
            ),
          );
          // End the running tasks one at a time, lowest rank first, until all have run.
          const done = new Set<number>();
          for (let ended = 0; ended < tasks.length; ended++) {
            await settle();
            const runningNow = started.filter((i) => !done.has(i));
            const next = runningNow.sort((a, b) => tasks[a]!.rank - tasks[b]!.rank || a - b)[0]!;
            done.add(next);
            ends[next]!();
          }
          const results = await Promise.all(outcomes);
          expect(most).toBeLessThanOrEqual(concurrency);
          expect(started).toEqual(tasks.map((_, i) => i));
          expect(results).toEqual(tasks.map((t, i) => (t.fails ? { error: `task ${i}` } : { value: i })));
        },
      ),
    );
  });

  it('starts as many tasks as the limit allows at once, and the next only when one ends', async () => {
    const limit = limiter(2);
    const ends: (() => void)[] = [];
    const started: number[] = [];
    const all = [0, 1, 2, 3].map((i) => limit(() => new Promise<void>((resolve) => (started.push(i), ends.push(resolve)))));
    await settle();
    expect(started).toEqual([0, 1]);
    ends[1]!();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    ends[0]!();
    ends[2]!();
    await settle();
    ends[3]!();
    await Promise.all(all);
    expect(started).toEqual([0, 1, 2, 3]);
  });
});
