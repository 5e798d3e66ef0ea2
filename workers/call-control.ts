import { isErrorCode, ToolwardenError } from '../src/errors.js';
import type { CallControl } from '../src/protocol/tool-host.js';

/** Time before the deadline at which the signal aborts, so a cooperative tool can stop and keep its worker. */
export function abortLeadMs(leftMs: number): number {
  return Math.min(250, Math.floor(leftMs / 10));
}

/**
 * One call's control in its tool host: the signal its code sees (a host tool's `ctx.signal`) aborts when the main
 * thread cancels the call (an abort, the session's close) or shortly before the call's deadline, which the main
 * thread may move (`extend`). The deadline arrives as epoch milliseconds and is kept on this thread's clock. The
 * signal, and its timer, exist only once the code reads it.
 */
export class HostCallControl implements CallControl {
  readonly #name: string;
  readonly #limit: string;
  /** `performance.now()` time of the deadline on this thread; Infinity without one. */
  #deadline: number;
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** A cancel that came before the signal was made. */
  #cancelled: ToolwardenError | undefined;

  constructor(name: string, deadlineEpochMs: number | undefined, limit: string | undefined) {
    this.#name = name;
    this.#limit = limit ?? 'its time limit';
    this.#deadline = localTime(deadlineEpochMs);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#cancelled !== undefined) this.#controller.abort(this.#cancelled);
      else this.#arm();
    }
    return this.#controller.signal;
  }

  /** Why the signal aborted, once it has. */
  get abortReason(): ToolwardenError | undefined {
    const reason: unknown = this.#controller?.signal.reason ?? this.#cancelled;
    return reason instanceof ToolwardenError ? reason : undefined;
  }

  /** The main thread ended the call early: the signal aborts with its code (ABORTED unless a known code). */
  cancel(code: string, message: string): void {
    const reason = new ToolwardenError(isErrorCode(code) ? code : 'ABORTED', message);
    this.dispose();
    if (this.#controller === undefined) this.#cancelled ??= reason;
    else if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  /** The main thread moved the call's deadline. */
  moveDeadline(deadlineEpochMs: number): void {
    this.#deadline = localTime(deadlineEpochMs);
    if (this.#controller !== undefined && !this.#controller.signal.aborted) this.#arm();
  }

  /** The call ended: the timer goes. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    this.dispose();
    if (!Number.isFinite(this.#deadline)) return;
    const left = this.#deadline - performance.now();
    const controller = this.#controller as AbortController;
    this.#timer = setTimeout(() => controller.abort(new ToolwardenError('TIMEOUT', `${this.#name} is about to pass ${this.#limit}`)), Math.max(0, left - abortLeadMs(left)));
  }
}

/** An epoch time in this thread's `performance.now()` terms; Infinity for none. */
function localTime(epochMs: number | undefined): number {
  return epochMs === undefined ? Number.POSITIVE_INFINITY : epochMs - performance.timeOrigin;
}
