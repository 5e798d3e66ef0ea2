import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { fromPlainError, ToolwardenError } from '../../src/errors.js';
import type { GlobOutcome, GlobRequest, GrepOutcome, GrepRequest, WalkTaskResult } from '../../src/walk/types.js';
import { locateWalkTask } from './task-location.js';


/** Options of a {@link WalkPool}. */
export interface WalkPoolOptions {
  /** Threads running walks at once. @default max(2, min(availableParallelism() - 1, 8)) */
  maxThreads?: number;
  /** A thread idle this long exits; the pool keeps none warm. @default 30000 */
  idleTimeoutMs?: number;
}

/**
 * Default thread count: one core is left to the main thread, but never fewer than two threads, so on a
 * 2-core machine one session's runaway regex (running until its timeout) does not stall every other grep.
 */
function defaultMaxThreads(): number {
  return Math.max(2, Math.min(availableParallelism() - 1, 8));
}

type WalkKind = 'grep' | 'glob';

/**
 * Runs the broker's CPU-heavy walks (grep, glob) in a piscina thread pool. Each call has a deadline: past it,
 * the task is aborted (piscina terminates that thread and starts another), so a catastrophic regex costs one
 * thread for `timeoutMs`, never the runtime.
 * @example
 * const pool = new WalkPool();
 * const { matches } = await pool.grep({ root, pattern: 'TODO', maxResults: 100, scope: { roots: [root] } }, 30_000);
 * await pool.close();
 */
export class WalkPool {
  readonly #piscina: Piscina;

  constructor(options: WalkPoolOptions = {}) {
    this.#piscina = new Piscina({
      filename: locateWalkTask().href,
      minThreads: 0,
      maxThreads: options.maxThreads ?? defaultMaxThreads(),
      idleTimeout: options.idleTimeoutMs ?? 30_000,
    });
  }

  /**
   * Greps `request.root`. Rejects with a ToolwardenError: INVALID_ARGS (bad pattern or glob), NOT_FOUND,
   * NOT_READABLE, TIMEOUT (past `timeoutMs`), or the reason `signal` was aborted with.
   */
  grep(request: GrepRequest, timeoutMs: number, signal?: AbortSignal): Promise<GrepOutcome> {
    return this.#run<GrepOutcome>('grep', request, `grep for '${request.pattern}'`, timeoutMs, signal);
  }

  /** Globs under `request.root`; rejects like {@link WalkPool.grep}. */
  glob(request: GlobRequest, timeoutMs: number, signal?: AbortSignal): Promise<GlobOutcome> {
    return this.#run<GlobOutcome>('glob', request, `glob '${request.pattern}'`, timeoutMs, signal);
  }

  /** Stops every thread; running walks are aborted. */
  async close(): Promise<void> {
    await this.#piscina.destroy();
  }

  async #run<T>(kind: WalkKind, request: GrepRequest | GlobRequest, label: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new ToolwardenError('INVALID_ARGS', `${label}: timeout ${String(timeoutMs)} ms must be a positive number`);
    }
    if (!Number.isInteger(request.maxResults) || request.maxResults < 1) {
      throw new ToolwardenError('INVALID_ARGS', `${label}: maxResults ${String(request.maxResults)} must be a positive integer`);
    }
    if (signal?.aborted) throw describeAbort(signal, label);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const onAbort = (): void => deadline.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = (await this.#piscina.run(request, { name: kind, signal: deadline.signal })) as WalkTaskResult<T>;
      if (!result.ok) throw fromPlainError(result.error);
      return result.value;
    } catch (error) {
      throw describeFailure(error, label, timeoutMs, signal);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function describeFailure(error: unknown, label: string, timeoutMs: number, signal: AbortSignal | undefined): unknown {
  if (error instanceof ToolwardenError) return error;
  if (signal?.aborted) return describeAbort(signal, label);
  if (error instanceof Error && error.name === 'AbortError') {
    return new ToolwardenError('TIMEOUT', `${label} ran past the walk time limit of ${timeoutMs} ms; narrow the path, add a glob filter or simplify the pattern`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolwardenError('INTERNAL', `${label} failed in the walk pool: ${reason}`);
}

function describeAbort(signal: AbortSignal, label: string): ToolwardenError {
  return signal.reason instanceof ToolwardenError ? signal.reason : new ToolwardenError('ABORTED', `${label} was cancelled by the caller`);
}
