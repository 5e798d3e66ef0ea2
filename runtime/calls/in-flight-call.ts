import { performance } from 'node:perf_hooks';
import { ToolwardenError } from '../../src/errors.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
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
 *
 * Most calls end normally and never hand their signal to any work (a read, a host tool in the worker), so the signal
 * is made when the work first asks for it, and a normal end makes no error object unless a signal is there to carry
 * it: a profile of 64 sessions put a tenth of the main thread's time in those two, per call.
 */
export class InFlightCall {
  readonly context: CallContext;
  #controller: AbortController | undefined;
  /** Why the call ended, once it has: an early end's error, or the normal end's (made only when asked for). */
  #ended: (() => ToolwardenError) | undefined;
  readonly #name: string;
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.abort(new ToolwardenError('ABORTED', `${this.#name} was aborted by the caller`));
  readonly #whenEnded: (() => void)[] = [];
  readonly #atDeadline: (() => void)[] = [];
  /** The deadline's timer, then (once passed) the backstop's. */
  #timer: NodeJS.Timeout | undefined;
  #pastDeadline = false;
  #resolveEarly!: (result: ToolResult) => void;
  readonly #early = new Promise<ToolResult>((resolve) => (this.#resolveEarly = resolve));

  constructor(name: string, timeoutMs: number, external: AbortSignal | undefined) {
    this.#name = name;
    this.#external = external;
    const signal = (): AbortSignal => this.#signal();
    this.context = {
      get signal() {
        return signal();
      },
      deadline: performance.now() + timeoutMs,
      limit: `toolTimeoutMs=${timeoutMs}`,
    };
    external?.addEventListener('abort', this.#onExternalAbort, { once: true });
    this.#armDeadline();
  }

  /** Whether the call has ended, early or not (its signal has aborted, or will when first asked for). */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /**
   * Moves the deadline `ms` later: the time the call spent waiting for a fresh worker to start and load its host
   * tool modules is not the tool's time (counting it would stop a replacement worker for being slow to boot).
   * Call before {@link atDeadline}.
   */
  extend(ms: number): void {
    if (ms <= 0 || this.#ended) return;
    (this.context as { deadline: number }).deadline += ms;
    clearTimeout(this.#timer);
    this.#pastDeadline = false;
    this.#armDeadline();
  }

  /** The work's result, or the early end's (ABORTED, SESSION_CLOSED, TIMEOUT) as soon as there is one. */
  settle(work: Promise<ToolResult>): Promise<ToolResult> {
    return Promise.race([work, this.#early]);
  }

  /** Runs `action` at the call's deadline, unless the call has ended by then (at once when it has passed already). */
  atDeadline(action: () => void): void {
    if (this.#ended) return;
    if (this.#pastDeadline) setImmediate(() => this.#ended === undefined && action());
    else this.#atDeadline.push(action);
  }

  /** Runs `action` once when the call ends, early or not; the same moment the context's signal aborts. */
  whenEnded(action: () => void): void {
    if (this.#ended) action();
    else this.#whenEnded.push(action);
  }

  /** Ends the call early with `reason`; its work is told through the context's signal. */
  abort(reason: ToolwardenError): void {
    if (this.#finish(() => reason)) this.#resolveEarly(errorResult(reason.code, reason.message));
  }

  /** Called once the call has ended: its timers go, and work still running for it is aborted. */
  end(): void {
    clearTimeout(this.#timer);
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
    const name = this.#name;
    let reason: ToolwardenError | undefined;
    this.#finish(() => (reason ??= new ToolwardenError('ABORTED', `${name} has ended; work it started is stopped`)));
  }

  /** Records the end (false if the call had ended already), aborts a signal handed out, runs the end actions. */
  #finish(reason: () => ToolwardenError): boolean {
    if (this.#ended) return false;
    this.#ended = reason;
    this.#controller?.abort(reason());
    for (const action of this.#whenEnded.splice(0)) action();
    return true;
  }

  #signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#ended) this.#controller.abort(this.#ended());
    }
    return this.#controller.signal;
  }

  #armDeadline(): void {
    this.#timer = setTimeout(() => {
      this.#pastDeadline = true;
      if (this.#ended) return;
      for (const action of this.#atDeadline.splice(0)) action();
      this.#timer = setTimeout(() => {
        this.abort(new ToolwardenError('TIMEOUT', `${this.#name} did not stop within ${DEADLINE_BACKSTOP_MS} ms of its deadline (${this.context.limit})`));
      }, DEADLINE_BACKSTOP_MS);
    }, Math.max(0, this.context.deadline - performance.now()));
  }
}
