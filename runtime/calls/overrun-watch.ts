import { performance } from 'node:perf_hooks';

/**
 * Time a tool host has, after the deadline or abort and after the broker's last answer to the call, to give its own
 * answer before it counts as overrunning. A cooperative host tool stops on ctx.signal just before the deadline by the
 * worker's clock, which lags the main thread's by the hop and, under load, by the worker's event loop.
 */
export const OVERRUN_GRACE_MS = 500;
const POLL_MS = 20;

/** What {@link watchOverrun} looks at. */
export interface OverrunWatch {
  /** Whether the call's tool host has answered (or ended). */
  settled(): boolean;
  /** The call's broker requests in flight: while there are some, the host waits on the main thread. */
  brokerBusy(): number;
  /** `performance.now()` when the broker last answered the call; -Infinity if never. */
  brokerAnsweredAt(): number;
  /** Stops the tool host: its own code ran past the call's deadline (or past an abort). */
  stop(): void;
}

/**
 * Decides, from a call's deadline or abort on, whether code in the tool host overran. A call waiting on broker work
 * (a walk, a command, an MCP request) has not: that work stops itself at the deadline. The host is stopped once it has
 * had {@link OVERRUN_GRACE_MS} both since the deadline (or abort) and since the broker's last answer, without giving
 * its own. A stopped host never takes the session's processes with it.
 */
export function watchOverrun(watch: OverrunWatch): void {
  const from = performance.now();
  const check = (): void => {
    if (watch.settled()) return;
    if (watch.brokerBusy() > 0) {
      setTimeout(check, POLL_MS).unref();
      return;
    }
    const waited = performance.now() - Math.max(from, watch.brokerAnsweredAt());
    if (waited >= OVERRUN_GRACE_MS) return watch.stop();
    setTimeout(check, OVERRUN_GRACE_MS - waited).unref();
  };
  check();
}
