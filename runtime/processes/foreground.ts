import { ToolwardenError } from '../../src/errors.js';
import { execCommand, type ExecOptions, type ExecOutcome } from './exec-command.js';

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<ExecOutcome>;
}

/**
 * One session's foreground commands in flight, registered like its background processes: {@link close} SIGKILLs the
 * group of each (through the code that spawned it) and waits until it is gone, so a closing session or runtime leaves
 * no command running until its own timeout.
 */
export class ForegroundCommands {
  readonly #running = new Set<Running>();
  #closed = false;

  /** Runs a command like execCommand; it is killed by its own signal, its timeout, or {@link close}. */
  async run(opts: ExecOptions): Promise<ExecOutcome> {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', `the session is closed; "${opts.command}" was not started`);
    const controller = new AbortController();
    // A listener rather than AbortSignal.any: Node 20 may collect a combined signal nothing else holds, and its abort
    // would then never reach the command.
    const given = opts.signal;
    const onAbort = (): void => controller.abort(given?.reason);
    if (given?.aborted) onAbort();
    else given?.addEventListener('abort', onAbort, { once: true });
    const running: Running = { controller, done: execCommand({ ...opts, signal: controller.signal }) };
    this.#running.add(running);
    try {
      return await running.done;
    } finally {
      given?.removeEventListener('abort', onAbort);
      this.#running.delete(running);
    }
  }

  /** Kills every running command's whole group, refuses new ones, and waits until each has ended. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = [...this.#running];
    const reason = new ToolwardenError('SESSION_CLOSED', 'the session closed while the command ran; its process group was killed');
    for (const { controller } of running) controller.abort(reason);
    await Promise.allSettled(running.map(({ done }) => done));
  }
}
