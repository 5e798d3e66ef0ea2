import { performance } from 'node:perf_hooks';
import { ToolwardenError } from '../../src/errors.js';

/**
 * What the work of one tool call is given: a signal that aborts when the call ends (early or not), and the deadline it
 * must stop by. The code that starts a piece of work (a process group, a walk, an MCP request, an approver's wait) sets
 * its own timer from the deadline and stops that work itself: the timer lives with the code that can kill the work.
 */
export interface CallContext {
  /** Aborted when the call ends, early or not; its reason is a ToolwardenError (ABORTED, SESSION_CLOSED, TIMEOUT). */
  readonly signal: AbortSignal;
  /** `performance.now()` time by which the work must have stopped. */
  readonly deadline: number;
  /** The limit behind the deadline, for messages, e.g. `toolTimeoutMs=30000`. */
  readonly limit: string;
}

/** A call's handle in the tool host running it: an early end or a moved deadline is passed on through it. */
export interface RemoteCall {
  /** The call ended early: the host's signal for it aborts with this code and message. */
  cancel(code: string, message: string): void;
  /** The call's deadline moved (`performance.now()` time of this thread). */
  moveDeadline(deadline: number): void;
}

// setTimeout's largest delay; an unbounded context still needs a finite timer.
const MAX_TIMER_MS = 2_147_483_647;

/** Milliseconds left before the context's deadline; 0 once it has passed. */
export function remainingMs(context: CallContext): number {
  return Math.max(0, Math.floor(context.deadline - performance.now()));
}

/**
 * The time work started now has left, for a timer of its own that stops it at the deadline; TIMEOUT naming `what`
 * when the deadline has already passed, the signal's reason when the call has already ended.
 */
export function timeLeftMs(context: CallContext, what: string): number {
  if (context.signal.aborted) throw abortReason(context.signal, what);
  const left = remainingMs(context);
  if (left <= 0) throw new ToolwardenError('TIMEOUT', `${what} was asked for after its call's deadline (${context.limit})`);
  return Math.min(left, MAX_TIMER_MS);
}

/** The reason a context's signal aborted, as a ToolwardenError (ABORTED when it was aborted without one). */
export function abortReason(signal: AbortSignal, what: string): ToolwardenError {
  return signal.reason instanceof ToolwardenError ? signal.reason : new ToolwardenError('ABORTED', `${what} was aborted`);
}

/**
 * A signal that aborts with the context's signal, or at its deadline with TIMEOUT naming `what` and the limit. Call
 * `dispose` when the work is done, so the timer and listener go.
 */
export function untilDeadline(context: CallContext, what: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(abortReason(context.signal, what));
  if (context.signal.aborted) onAbort();
  else context.signal.addEventListener('abort', onAbort, { once: true });
  const left = context.deadline - performance.now();
  const timer = Number.isFinite(left)
    ? setTimeout(() => controller.abort(new ToolwardenError('TIMEOUT', `${what} did not finish within ${context.limit}`)), Math.min(MAX_TIMER_MS, Math.max(0, left)))
    : undefined;
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
    },
  };
}
