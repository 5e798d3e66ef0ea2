import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoopDelayRecorder } from '../../bench/load.js';

describe('LoopDelayRecorder', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const runFor = async (recorder: LoopDelayRecorder, ms: number): Promise<void> => {
    const run = recorder.during(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    await vi.advanceTimersByTimeAsync(ms);
    await run;
  };

  it('does not record the time between two runs as a delay', async () => {
    const recorder = new LoopDelayRecorder();
    await runFor(recorder, 20);
    await vi.advanceTimersByTimeAsync(300);
    await runFor(recorder, 20);
    const summary = recorder.summary();
    expect(summary.n).toBeGreaterThanOrEqual(38);
    expect(summary.max).toBeLessThan(1);
  });

  it('records nothing before it ran', () => {
    expect(new LoopDelayRecorder().summary().n).toBe(0);
  });
});
