import { describe, expect, it } from 'vitest';
import { InFlightCall } from '../../runtime/calls/in-flight-call.js';
import { ToolwardenError } from '../../src/errors.js';
import { okResult } from '../../src/tool-result.js';

const never = new Promise<never>(() => undefined);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// The call lifecycle the session runs its work in (runtime/calls/in-flight-call.ts): its signal is made lazily, so each
// case reads it at a different moment (before, during, after the end) and must see the same thing.
describe('InFlightCall', () => {
  it.each(['before the end', 'after the end'] as const)('a signal read %s aborts with ABORTED once the call has ended', async (when) => {
    const call = new InFlightCall('read_file', 60_000, undefined);
    const early = when === 'before the end' ? call.context.signal : undefined;
    expect(await call.settle(Promise.resolve(okResult('done')))).toMatchObject({ content: [{ text: 'done' }] });
    call.end();
    const signal = early ?? call.context.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ToolwardenError);
    expect(signal.reason).toMatchObject({ code: 'ABORTED', message: expect.stringContaining('read_file has ended') });
    expect(call.ended).toBe(true);
  });

  it('an early abort settles the call with its code and reaches a signal handed out, and the end actions run once', async () => {
    const call = new InFlightCall('grep', 60_000, undefined);
    const signal = call.context.signal;
    let ended = 0;
    call.whenEnded(() => (ended += 1));
    const settled = call.settle(never);
    call.abort(new ToolwardenError('SESSION_CLOSED', 'closed during the call'));
    expect(await settled).toMatchObject({ isError: true, code: 'SESSION_CLOSED' });
    expect(signal.reason).toMatchObject({ code: 'SESSION_CLOSED' });
    call.end();
    call.abort(new ToolwardenError('ABORTED', 'again'));
    expect(ended).toBe(1);
    // Registered after the end: runs at once.
    call.whenEnded(() => (ended += 1));
    expect(ended).toBe(2);
  });

  it("the caller's signal aborts the call with ABORTED", async () => {
    const external = new AbortController();
    const call = new InFlightCall('bash', 60_000, external.signal);
    const settled = call.settle(never);
    external.abort();
    expect(await settled).toMatchObject({ code: 'ABORTED', content: [{ text: expect.stringContaining('aborted by the caller') }] });
    expect(call.context.signal.aborted).toBe(true);
    call.end();
  });

  it('runs deadline actions at the deadline, including one added after it passed, and none once the call ended', async () => {
    const call = new InFlightCall('noop', 20, undefined);
    await new Promise<void>((resolve) => call.atDeadline(resolve));
    // Past the deadline now: an action added late still runs.
    await new Promise<void>((resolve) => call.atDeadline(resolve));
    call.end();
    let afterEnd = false;
    call.atDeadline(() => (afterEnd = true));
    await sleep(30);
    expect(afterEnd).toBe(false);
  });

  it('extend moves the deadline, even one already passed', async () => {
    const call = new InFlightCall('noop', 20, undefined);
    const before = call.context.deadline;
    await sleep(40);
    call.extend(300);
    expect(call.context.deadline).toBe(before + 300);
    let fired = false;
    const atDeadline = new Promise<void>((resolve) => call.atDeadline(() => resolve(void (fired = true))));
    // The new deadline is at least 260 ms away: nothing may fire yet.
    await sleep(20);
    expect(fired).toBe(false);
    await atDeadline;
    expect(performance.now()).toBeGreaterThanOrEqual(call.context.deadline - 1);
    call.end();
  });
});
