/**
 * A run's stop signal (SIGINT/SIGTERM) as one `abort` listener, however many executions and
 * WebSocket sessions wait on it: each registers a plain callback here instead of a listener of
 * its own. An AbortSignal listener costs several µs to add and as much to remove (options checked,
 * a listener record made), and every execution added two and removed two. When the signal aborts,
 * the callbacks registered run once, in the order they were registered, as listeners would.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Call `callback` when `signal` aborts, unless the returned function unregisters it first. For a
 * signal not yet aborted (callers look at `signal.aborted` first, as before listening).
 */
export function onStop(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const registered = new Set<() => void>();
    callbacks = registered;
    waiting.set(signal, registered);
    signal.addEventListener(
      'abort',
      () => {
        const all = [...registered];
        registered.clear();
        for (const call of all) call();
      },
      { once: true },
    );
  }
  const mine = callbacks;
  mine.add(callback);
  return () => {
    mine.delete(callback);
  };
}
