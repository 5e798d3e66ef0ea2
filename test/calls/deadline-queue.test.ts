import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue, type Deadline } from '../../runtime/calls/deadline-queue.js';

// One timer for every call's deadline: generated adds and removes, then time passes; each entry still queued fires
// once, at or after its time, in time order, and none that was removed fires.
describe('DeadlineQueue', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  const entry = (at: number, fired: { at: number; firedAt: number }[]): Deadline => ({ at, index: -1, fire: () => fired.push({ at, firedAt: performance.now() }) });

  it('fires what is due in time order, once, and nothing removed', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ delay: fc.integer({ min: 0, max: 5000 }), removed: fc.boolean() }), { maxLength: 60 }), (plan) => {
        const queue = new DeadlineQueue();
        const fired: { at: number; firedAt: number }[] = [];
        const start = performance.now();
        const entries = plan.map(({ delay }) => entry(start + delay, fired));
        for (const e of entries) queue.add(e);
        plan.forEach(({ removed }, i) => removed && queue.remove(entries[i] as Deadline));
        vi.advanceTimersByTime(6000);
        const kept = plan.map((p, i) => ({ ...p, e: entries[i] as Deadline })).filter((p) => !p.removed).map((p) => p.e.at).sort((a, b) => a - b);
        expect(fired.map((f) => f.at)).toEqual(kept);
        for (const f of fired) expect(f.firedAt).toBeGreaterThanOrEqual(f.at);
        expect(queue.size).toBe(0);
      }),
      { numRuns: 200, seed: 28 },
    );
  });

  it('an entry added from a firing entry, and one earlier than the armed timer, both fire on time', () => {
    const queue = new DeadlineQueue();
    const fired: { at: number; firedAt: number }[] = [];
    const start = performance.now();
    queue.add({ at: start + 100, index: -1, fire: () => queue.add(entry(start + 150, fired)) });
    queue.add(entry(start + 1000, fired));
    queue.add(entry(start + 50, fired));
    vi.advanceTimersByTime(200);
    expect(fired.map((f) => f.at - start)).toEqual([50, 150]);
    vi.advanceTimersByTime(1000);
    expect(fired.map((f) => f.at - start)).toEqual([50, 150, 1000]);
  });
});
