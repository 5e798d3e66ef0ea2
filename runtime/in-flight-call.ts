import { performance } from 'node:perf_hooks';
import { ToolwardenError } from '../src/errors.js';
import { errorResult, type ToolResult } from '../src/tool-result.js';
import type { CallContext } from './call-context.js';

/**
 * How long past its deadline a call may still take before it ends with TIMEOUT regardless. Each piece of work stops
 * itself at the deadline (it owns its timer); this only bounds the caller's wait should one of them not.
 */
export const DEADLINE_BACKSTOP_MS = 5_000;

/**
 * One call of `Session.call` in flight: the context its work runs in, and its early ends. The context's signal aborts
 * when the caller aborts (ABORTED), the session closes (SESSION_CLOSED), the backstop passes (TIMEOUT), and, last,
 * when the call has ended anyway, so no work started for it outlives it.
 */
export class InFlightCall {
  readonly context: CallContext;
  readonly #controller = new AbortController();
  readonly #name: string;
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.abort(new ToolwardenError('ABORTED', `${this.#name} was aborted by the caller`));
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #early: Promise<ToolResult>;

  constructor(name: string, timeoutMs: number, external: AbortSignal | undefined) {
    this.#name = name;
    this.#external = external;
    this.context = { signal: this.#controller.signal, deadline: performance.now() + timeoutMs, limit: `toolTimeoutMs=${timeoutMs}` };
    this.#early = new Promise((resolve) => {
      this.#controller.signal.addEventListener('abort', () => {
        const reason = this.#controller.signal.reason as ToolwardenError;
        resolve(errorResult(reason.code, reason.message));
      }, { once: true });
    });
    external?.addEventListener('abort', this.#onExternalAbort, { once: true });
    this.#armBackstop();
  }

  /**
   * Moves the deadline `ms` later: the time the call spent waiting for a fresh worker to start and load its host
   * tool modules is not the tool's time (counting it would stop a replacement worker for being slow to boot).
   * Call before {@link atDeadline}.
   */
  extend(ms: number): void {
    if (ms <= 0) return;
    (this.context as { deadline: number }).deadline += ms;
    clearTimeout(this.#backstop);
    this.#armBackstop();
  }

  #backstop: NodeJS.Timeout | undefined;

  #armBackstop(): void {
    this.#backstop = setTimeout(() => {
      this.abort(new ToolwardenError('TIMEOUT', `${this.#name} did not stop within ${DEADLINE_BACKSTOP_MS} ms of its deadline (${this.context.limit})`));
    }, Math.max(0, this.context.deadline - performance.now()) + DEADLINE_BACKSTOP_MS);
  }

  /** The work's result, or the early end's (ABORTED, SESSION_CLOSED, TIMEOUT) as soon as there is one. */
  settle(work: Promise<ToolResult>): Promise<ToolResult> {
    return Promise.race([work, this.#early]);
  }

  /** Runs `action` at the call's deadline, unless the call has ended by then. */
  atDeadline(action: () => void): void {
    this.#after(Math.max(0, this.context.deadline - performance.now()), action);
  }

  /** Ends the call early with `reason`; its work is told through the context's signal. */
  abort(reason: ToolwardenError): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  /** Called once the call has ended: its timers go, and work still running for it is aborted. */
  end(): void {
    clearTimeout(this.#backstop);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
    this.abort(new ToolwardenError('ABORTED', `${this.#name} has ended; work it started is stopped`));
  }

  #after(ms: number, action: () => void): void {
    this.#timers.push(setTimeout(action, ms));
  }
}
