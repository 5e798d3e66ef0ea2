import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { isHostState, type WorkerPorts } from '../../src/protocol/worker-bind.js';
import { once } from 'node:events';
import { ToolwardenError } from '../../src/errors.js';
import { workerFileUrl } from './worker-url.js';

/** A started worker that has posted "ready" and is not yet bound to a session. */
export interface IdleWorker {
  readonly worker: Worker;
  /** The main thread's end of the broker channel: the session's broker is exposed here. */
  readonly brokerPort: MessagePort;
  /** The main thread's end of the tool host channel. */
  readonly hostPort: MessagePort;
  /** The main thread's end of the control plane (comlink). */
  readonly controlPort: MessagePort;
  /** Last lines the worker wrote to stdout/stderr (captured, never mixed into the host's output). */
  readonly output: string[];
  readonly heapMb: number;
}

const OUTPUT_LINES_KEPT = 50;

/** Options of the idle-worker pool. */
export interface WorkerPoolOptions {
  /** Idle workers kept started. @default 2 */
  size: number;
  /** Heap limit of pooled workers, in MB. */
  heapMb: number;
}

/**
 * Keeps a few pre-started session workers so opening a session takes one instead of waiting for a boot.
 * A worker whose heap limit differs from the pool's is started on demand.
 */
export class WorkerPool {
  readonly #options: WorkerPoolOptions;
  readonly #idle: Promise<IdleWorker>[] = [];
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
    this.#refill();
  }

  /** Takes an idle worker with the given heap limit, starting one when none is waiting. */
  async take(heapMb: number): Promise<IdleWorker> {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', 'the runtime is closed');
    if (heapMb !== this.#options.heapMb) return startWorker(heapMb);
    const next = this.#idle.shift();
    // Starting a Worker blocks the main thread for about a millisecond: do it after this open has returned.
    setImmediate(() => this.#refill());
    if (!next) return startWorker(heapMb);
    try {
      return await next;
    } catch {
      return startWorker(heapMb);
    }
  }

  /** Workers started (or starting) and waiting for a session. */
  get idleCount(): number {
    return this.#idle.length;
  }

  /** Stops every idle worker. */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map(async (pending) => {
      const started = await pending.catch(() => undefined);
      await started?.worker.terminate();
    }));
  }

  #refill(): void {
    while (!this.#closed && this.#idle.length < this.#options.size) {
      const pending = startWorker(this.#options.heapMb);
      pending.catch(() => undefined);
      this.#idle.push(pending);
    }
  }
}

/** Starts a session worker with an empty environment, a heap limit and captured output; resolves once it is ready. */
export async function startWorker(heapMb: number): Promise<IdleWorker> {
  const broker = new MessageChannel();
  const host = new MessageChannel();
  const control = new MessageChannel();
  const ports: WorkerPorts = { brokerPort: broker.port2, hostPort: host.port2, controlPort: control.port2 };
  const worker = new Worker(workerFileUrl('session-worker'), {
    workerData: ports,
    transferList: [broker.port2, host.port2, control.port2],
    env: {},
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, heapMb / 8)) },
  });
  const output: string[] = [];
  const capture = (chunk: Buffer): void => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (output.length > OUTPUT_LINES_KEPT) output.splice(0, output.length - OUTPUT_LINES_KEPT);
  };
  worker.stdout.on('data', capture);
  worker.stderr.on('data', capture);
  const [message] = (await Promise.race([once(worker, 'message'), once(worker, 'error').then(([error]) => Promise.reject(error))])) as [unknown];
  if (!isHostState(message, 'ready')) {
    await worker.terminate();
    throw new ToolwardenError('WORKER_CRASHED', `session worker did not start: ${JSON.stringify(message)}`);
  }
  worker.unref();
  return { worker, output, heapMb, brokerPort: broker.port1, hostPort: host.port1, controlPort: control.port1 };
}
