import { describe, expect, it } from 'vitest';
import { mainThreadTurn } from '../runtime/calls/main-thread-turn.js';

/** Keeps the thread busy for `ms`, as a synchronous broker operation does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

/** Resolves at the start of a later pass of the loop, with a fresh slice. */
const nextPass = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/** `count` pieces of work of `ms` each, arriving at once, each taking its turn first; resolves their order of running. */
async function burst(count: number, ms: number, ran: string[]): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const turn = mainThreadTurn();
      if (turn) await turn;
      ran.push(`work ${n}`);
      busy(ms);
    }),
  );
}

describe('mainThreadTurn', () => {
  it('lets short work run at once, with no promise to wait on', async () => {
    await nextPass();
    const turns = Array.from({ length: 20 }, () => mainThreadTurn());
    expect(turns.every((turn) => turn === undefined)).toBe(true);
  });

  it('past the slice, makes the rest of a burst wait, so a due timer runs before the burst ends', async () => {
    await nextPass();
    const ran: string[] = [];
    setTimeout(() => ran.push('timer'), 0);
    await burst(20, 2, ran);
    const timerAt = ran.indexOf('timer');
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThan(ran.length - 1);
  });

  it('resumes waiting work in the order it arrived', async () => {
    await nextPass();
    const ran: string[] = [];
    await burst(12, 2, ran);
    expect(ran).toEqual(Array.from({ length: 12 }, (_, n) => `work ${n}`));
  });

  it('near miss: a burst that fits in a slice runs whole, before the timer', async () => {
    await nextPass();
    const ran: string[] = [];
    setTimeout(() => ran.push('timer'), 0);
    await burst(5, 0, ran);
    await nextPass();
    expect(ran).toEqual(['work 0', 'work 1', 'work 2', 'work 3', 'work 4', 'timer']);
  });
});
