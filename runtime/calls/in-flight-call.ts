import { performance } from 'node:perf_hooks';
import { ToolwardenError } from '../../src/errors.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { CallContext, RemoteCall } from './call-context.js';
import { DeadlineQueue, type Deadline } from './deadline-queue.js';

/**
 * How long past its deadline a call may still take before it ends with TIMEOUT regardless. Each piece of work stops
 * itself at the deadline (it owns its timer); this only bounds the caller's wait should one of them not.
 */
export const DEADLINE_BACKSTOP_MS = 5_000;

/** The process-wide queue of call deadlines (one timer for all calls). */
const CALL_DEADLINES = new DeadlineQueue();

/**
 * One call of `Session.call` in flight; it is also the context its work runs in (its signal, deadline and limit). The
 * signal aborts when the caller aborts (ABORTED), the session closes (SESSION_CLOSED), the backstop passes (TIMEOUT),
 * and, last, when the call has ended anyway, so no work started for it outlives it.
 *
 * Most calls end normally and never hand their signal to any work (a read, a host tool in the worker), so the signal
 * is made when the work first asks for it, and a normal end makes no error object unless a signal is there to carry
 * it. Its deadline sits in one queue shared by every call, not in a timer of its own.
 */
export class InFlightCall implements CallContext, Deadline {
  readonly name: string;
  /** `performance.now()` time by which the work must have stopped. */
  deadline: number;
  /** The limit behind the deadline, for messages. */
  readonly limit: string;
  /** When the queue next fires for this call: its deadline, then (once passed) the backstop. @internal */
  at: number;
  /** Its place in the deadline queue. @internal */
  index = -1;
  #controller: AbortController | undefined;
  /** Why the call ended, once it has: an early end's error, or the normal end's (made only when asked for). */
  #ended: (() => ToolwardenError) | undefined;
  readonly #external: AbortSignal | undefined;
  #onExternalAbort: (() => void) | undefined;
  #whenEnded: (() => void)[] | undefined;
  #atDeadline: (() => void)[] | undefined;
  #pastDeadline = false;
  #resolveEarly: ((result: ToolResult) => void) | undefined;
  #early: ToolResult | undefined;
  /** The call's handle in the tool host running it, once it was sent there. */
  #remote: RemoteCall | undefined;

  constructor(name: string, timeoutMs: number, external: AbortSignal | undefined) {
    this.name = name;
    this.deadline = performance.now() + timeoutMs;
    this.at = this.deadline;
    this.limit = `toolTimeoutMs=${timeoutMs}`;
    this.#external = external;
    if (external !== undefined) {
      this.#onExternalAbort = (): void => this.abort(new ToolwardenError('ABORTED', `${this.name} was aborted by the caller`));
      external.addEventListener('abort', this.#onExternalAbort, { once: true });
    }
    CALL_DEADLINES.add(this);
  }

  /** Hands the call its handle in the tool host: an early end or a moved deadline reaches the host through it. */
  attach(remote: RemoteCall): void {
    this.#remote = remote;
  }

  /** The call's context: the call itself (kept so call sites read as they always did). */
  get context(): CallContext {
    return this;
  }

  /** Aborted when the call ends, early or not; its reason is a ToolwardenError (ABORTED, SESSION_CLOSED, TIMEOUT). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#ended) this.#controller.abort(this.#ended());
    }
    return this.#controller.signal;
  }

  /** Whether the call has ended, early or not (its signal has aborted, or will when first asked for). */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /** Whether the call's deadline has passed (its deadline actions have run). */
  get pastDeadline(): boolean {
    return this.#pastDeadline;
  }

  /**
   * Moves the deadline `ms` later: the time the call spent waiting for a fresh worker to start and load its host
   * tool modules is not the tool's time (counting it would stop a replacement worker for being slow to boot).
   */
  extend(ms: number): void {
    if (ms <= 0 || this.#ended) return;
    this.deadline += ms;
    CALL_DEADLINES.remove(this);
    this.#pastDeadline = false;
    this.at = this.deadline;
    CALL_DEADLINES.add(this);
    this.#remote?.moveDeadline(this.deadline);
  }

  /** The work's result, or the early end's (ABORTED, SESSION_CLOSED, TIMEOUT) as soon as there is one. */
  settle(work: Promise<ToolResult>): Promise<ToolResult> {
    if (this.#early !== undefined) return Promise.resolve(this.#early);
    return new Promise<ToolResult>((resolve) => {
      this.#resolveEarly = resolve;
      work.then(resolve, (error: unknown) => resolve(errorResult('TOOL_FAILED', error instanceof Error ? error.message : String(error))));
    });
  }

  /** Runs `action` at the call's deadline, unless the call has ended by then (soon after when it has passed already). */
  atDeadline(action: () => void): void {
    if (this.#ended) return;
    if (this.#pastDeadline) setImmediate(() => this.#ended === undefined && action());
    else (this.#atDeadline ??= []).push(action);
  }

  /** Runs `action` once when the call ends, early or not; the same moment the context's signal aborts. */
  whenEnded(action: () => void): void {
    if (this.#ended) action();
    else (this.#whenEnded ??= []).push(action);
  }

  /** Ends the call early with `reason`; its work is told through the context's signal. */
  abort(reason: ToolwardenError): void {
    if (!this.#finish(() => reason)) return;
    this.#remote?.cancel(reason.code, reason.message);
    this.#early = errorResult(reason.code, reason.message);
    this.#resolveEarly?.(this.#early);
  }

  /** Called once the call has ended: its deadline goes, and work still running for it is aborted. */
  end(): void {
    if (this.#onExternalAbort !== undefined) this.#external?.removeEventListener('abort', this.#onExternalAbort);
    const name = this.name;
    let reason: ToolwardenError | undefined;
    this.#finish(() => (reason ??= new ToolwardenError('ABORTED', `${name} has ended; work it started is stopped`)));
  }

  /** The deadline queue's callback: the deadline's actions first, then, should the call still run, the backstop. @internal */
  fire(): void {
    if (this.#ended) return;
    if (this.#pastDeadline) {
      this.abort(new ToolwardenError('TIMEOUT', `${this.name} did not stop within ${DEADLINE_BACKSTOP_MS} ms of its deadline (${this.limit})`));
      return;
    }
    this.#pastDeadline = true;
    this.at = this.deadline + DEADLINE_BACKSTOP_MS;
    CALL_DEADLINES.add(this);
    const actions = this.#atDeadline;
    this.#atDeadline = undefined;
    if (actions !== undefined) for (const action of actions) action();
  }

  /** Records the end (false if the call had ended already), aborts a signal handed out, runs the end actions. */
  #finish(reason: () => ToolwardenError): boolean {
    if (this.#ended) return false;
    this.#ended = reason;
    CALL_DEADLINES.remove(this);
    this.#controller?.abort(reason());
    const actions = this.#whenEnded;
    this.#whenEnded = undefined;
    if (actions !== undefined) for (const action of actions) action();
    return true;
  }
}
