import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abortLeadMs, HostCallControl } from '../../workers/call-control.js';

// A call's control in its tool host: the signal a host tool sees (ctx.signal). Fake timers: the deadline is a time.
describe('HostCallControl', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());
  const epochIn = (ms: number): number => performance.timeOrigin + performance.now() + ms;

  it('aborts with TIMEOUT shortly before the deadline, naming the limit', () => {
    const control = new HostCallControl('slow', epochIn(1000), 'toolTimeoutMs=1000');
    const signal = control.signal;
    vi.advanceTimersByTime(1000 - abortLeadMs(1000) - 1);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.aborted).toBe(true);
    expect(control.abortReason).toMatchObject({ code: 'TIMEOUT', message: 'slow is about to pass toolTimeoutMs=1000' });
  });

  it('a moved deadline moves the abort (extend), and the old one no longer fires', () => {
    const control = new HostCallControl('slow', epochIn(1000), 'toolTimeoutMs=1000');
    const signal = control.signal;
    control.moveDeadline(epochIn(5000));
    vi.advanceTimersByTime(4000);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(signal.aborted).toBe(true);
  });

  it('a cancel aborts at once with its code; one before the signal was read is there when it is', () => {
    const read = new HostCallControl('t', epochIn(60_000), undefined);
    const signal = read.signal;
    read.cancel('SESSION_CLOSED', 'the session closed');
    expect(signal.reason).toMatchObject({ code: 'SESSION_CLOSED', message: 'the session closed' });
    const unread = new HostCallControl('t', epochIn(60_000), undefined);
    unread.cancel('ABORTED', 'aborted by the caller');
    expect(unread.abortReason).toMatchObject({ code: 'ABORTED' });
    expect(unread.signal.aborted).toBe(true);
  });

  it('a cancel naming no known code is ABORTED; no deadline means no timer; dispose stops the timer', () => {
    const odd = new HostCallControl('t', undefined, undefined);
    const signal = odd.signal;
    vi.advanceTimersByTime(10_000_000);
    expect(signal.aborted).toBe(false);
    odd.cancel('NOT_A_CODE', 'x');
    expect(odd.abortReason).toMatchObject({ code: 'ABORTED' });
    const disposed = new HostCallControl('t', epochIn(100), undefined);
    const quiet = disposed.signal;
    disposed.dispose();
    vi.advanceTimersByTime(1000);
    expect(quiet.aborted).toBe(false);
  });
});
