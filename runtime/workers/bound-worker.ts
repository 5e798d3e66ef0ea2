import type { MessagePort } from 'node:worker_threads';
import { PROTOCOL_VERSION, type BindMessage, type Prefetched, type ToolHostApi } from '../../src/protocol.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { IdleWorker } from './worker-pool.js';
import type { BrokerServer } from '../broker/broker-server.js';
import type { ToolHostConnection } from './tool-host-connection.js';
import { ToolHostClient } from './tool-host-client.js';

/** Why a bound worker stopped. */
export type WorkerEnd = { reason: 'crashed' | 'timeout' | 'closed'; detail: string };

/**
 * A worker bound to one session: the broker is served on a port of its own and the worker's tool host is wrapped on
 * another (one channel per direction, so a release message can never close the other side). The broker server checks
 * every request against the admission of the call it names, so nothing the worker sends can widen it.
 */
export class BoundWorker implements ToolHostConnection {
  readonly #idle: IdleWorker;
  readonly #host: ToolHostClient;
  readonly #pending = new Set<(end: WorkerEnd) => void>();
  readonly #brokerPort: MessagePort;
  readonly #hostPort: MessagePort;
  #ended: WorkerEnd | undefined;
  readonly #onEnd: (end: WorkerEnd) => void;

  constructor(idle: IdleWorker, broker: BrokerServer, session: BindMessage['session'], onEnd: (end: WorkerEnd) => void) {
    this.#idle = idle;
    this.#onEnd = onEnd;
    this.#brokerPort = idle.brokerPort;
    this.#hostPort = idle.hostPort;
    const brokerPort = idle.brokerPort;
    brokerPort.on('message', (data: unknown) => broker(data, (response) => brokerPort.postMessage(response)));
    const hostPort = idle.hostPort;
    this.#host = new ToolHostClient({ post: (message) => hostPort.postMessage(message), listen: (listener) => hostPort.on('message', listener) });
    const bind: BindMessage = { type: 'bind', version: PROTOCOL_VERSION, session };
    // Posted after the open returns (waking the worker costs a tenth of a millisecond); calls made before it lands
    // wait in the tool host port, which the worker starts reading only once it is bound.
    setImmediate(() => idle.worker.postMessage(bind));
    let lastError = '';
    idle.worker.on('error', (error: Error & { code?: string }) => {
      lastError = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the worker ran out of memory' : `the worker crashed: ${error.message}`;
    });
    idle.worker.once('exit', (exitCode) => {
      this.#end({ reason: 'crashed', detail: lastError || `the worker exited with code ${exitCode}` });
    });
  }

  /** Whether the worker is still usable. */
  get alive(): boolean {
    return this.#ended === undefined;
  }

  /**
   * Runs a tool call; a crash ends every pending call with WORKER_CRASHED. The deadline is not kept here: the session
   * owns it, and terminates the worker (reason 'timeout', named with `timeoutMs`) only when the worker's code overran.
   */
  async call(name: string, args: Record<string, unknown>, timeoutMs: number, callId: string, prefetched?: Prefetched): Promise<ToolResult> {
    if (this.#ended) return endedResult(this.#ended, name, timeoutMs, this.#idle.output);
    let settleEnd!: (end: WorkerEnd) => void;
    const ended = new Promise<WorkerEnd>((resolve) => (settleEnd = resolve));
    this.#pending.add(settleEnd);
    try {
      const outcome = await Promise.race([this.#host.callTool(name, args, callId, prefetched), ended]);
      if (isWorkerEnd(outcome)) return endedResult(outcome, name, timeoutMs, this.#idle.output);
      return outcome;
    } catch (error) {
      // The port closed under the call: the worker is gone.
      const end: WorkerEnd = this.#ended ?? { reason: 'crashed', detail: error instanceof Error ? error.message : String(error) };
      return endedResult(end, name, timeoutMs, this.#idle.output);
    } finally {
      this.#pending.delete(settleEnd);
    }
  }

  /** Listing entries of the host tools the worker loaded; throws when a module failed to load or the worker ends. */
  async describeHostTools(): Promise<Awaited<ReturnType<ToolHostApi['describeHostTools']>>> {
    if (this.#ended) throw new Error(this.#ended.detail);
    let settleEnd!: (end: WorkerEnd) => void;
    const ended = new Promise<WorkerEnd>((resolve) => (settleEnd = resolve));
    this.#pending.add(settleEnd);
    try {
      const outcome = await Promise.race([this.#host.describeHostTools(), ended]);
      if (isWorkerEnd(outcome)) throw new Error(outcome.detail);
      return outcome;
    } finally {
      this.#pending.delete(settleEnd);
    }
  }

  /** Stops the worker; pending calls end with the given reason. */
  async terminate(end: WorkerEnd = { reason: 'closed', detail: 'the session closed' }): Promise<void> {
    this.#end(end);
    await this.#idle.worker.terminate();
  }

  /** The worker's captured stdout and stderr, last lines first-in. */
  get output(): readonly string[] {
    return this.#idle.output;
  }

  #end(end: WorkerEnd): void {
    if (this.#ended) return;
    this.#ended = end;
    for (const settle of this.#pending) settle(end);
    this.#pending.clear();
    this.#host.close(end.detail);
    this.#brokerPort.close();
    this.#hostPort.close();
    this.#onEnd(end);
  }
}

function isWorkerEnd(value: unknown): value is WorkerEnd {
  return typeof value === 'object' && value !== null && 'reason' in value && 'detail' in value && !('content' in value);
}

function endedResult(end: WorkerEnd, name: string, timeoutMs: number, output: readonly string[] = []): ToolResult {
  switch (end.reason) {
    case 'timeout':
      return errorResult('TIMEOUT', `${name} did not finish within toolTimeoutMs=${timeoutMs}; its worker was replaced and the session stays usable`);
    case 'closed':
      return errorResult('SESSION_CLOSED', `${name} was cut short: ${end.detail}`);
    case 'crashed':
      return errorResult(
        'WORKER_CRASHED',
        `${name} failed because ${end.detail}; the worker was replaced and the session stays usable${output.length > 0 ? `. The worker's last output:\n${output.slice(-5).join('\n')}` : ''}`,
      );
  }
}
