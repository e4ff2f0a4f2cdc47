import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { onStop } from '../../../src/core/runs/stop-signal.js';

describe('onStop: the callbacks waiting on a run stop signal', () => {
  test('run once each, in the order they were registered, when the signal aborts; an unregistered one does not run', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onStop(controller.signal, () => calls.push('first'));
    const off = onStop(controller.signal, () => calls.push('gone'));
    onStop(controller.signal, () => calls.push('second'));
    off();
    expect(calls).toEqual([]);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['first', 'second']);
  });

  test('listen to the signal once however many wait, and each signal apart', () => {
    const a = new AbortController();
    const b = new AbortController();
    const calls: string[] = [];
    const offs = Array.from({ length: 50 }, (_, i) => onStop(a.signal, () => calls.push(`a${i}`)));
    onStop(b.signal, () => calls.push('b'));
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(1);
    for (const off of offs.slice(1)) off();
    b.abort();
    expect(calls).toEqual(['b']);
    a.abort();
    expect(calls).toEqual(['b', 'a0']);
  });
});
