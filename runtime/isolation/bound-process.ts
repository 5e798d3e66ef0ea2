import { once } from 'node:events';
import { PROTOCOL_VERSION, type BoundSessionInfo, type Prefetched, type ToolHostApi } from '../../src/protocol.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { WorkerEnd } from '../workers/bound-worker.js';
import type { ToolHostConnection } from '../workers/tool-host-connection.js';
import { ToolHostClient } from '../workers/tool-host-client.js';
import type { BrokerServer } from '../broker/broker-server.js';
import { IpcChannels } from './ipc-channels.js';
import type { ProcessControlMessage } from '../../src/protocol/process-ipc.js';
import type { ToolProcess } from './start-tool-process.js';

/**
 * A tool host process bound to one session. The broker is served on the `broker` channel (each request checked against
 * the admission of the call it names) and the process's tool host is wrapped on the `host` channel, both multiplexed over the one IPC
 * channel. Stopping it (the session's overrun watch, or close) kills the whole process (it may not start children, so
 * nothing outlives it).
 */
export class BoundProcess implements ToolHostConnection {
  readonly #process: ToolProcess;
  readonly #host: ToolHostClient;
  readonly #pending = new Set<(end: WorkerEnd) => void>();
  readonly #onEnd: (end: WorkerEnd) => void;
  #ended: WorkerEnd | undefined;
  /** Set once the process is being killed; settles when it is gone. */
  #stopped: Promise<void> | undefined;

  constructor(started: ToolProcess, broker: BrokerServer, session: BoundSessionInfo, onEnd: (end: WorkerEnd) => void) {
    this.#process = started;
    this.#onEnd = onEnd;
    const { child } = started;
    const send = (message: unknown): void => {
      if (child.connected) child.send(message as object);
    };
    const channels = new IpcChannels(send);
    child.on('message', (message: unknown) => channels.deliver(message));
    const brokerChannel = channels.transport('broker');
    brokerChannel.listen((data) => broker(data, (response) => brokerChannel.post(response)));
    this.#host = new ToolHostClient(channels.transport('host'));
    let lastError = '';
    child.on('error', (error) => {
      lastError = error.message;
    });
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      const outOfMemory = started.output.some((line) => line.includes('heap out of memory'));
      const how = outOfMemory ? 'the tool process ran out of memory' : `the tool process exited with ${signal ?? `code ${code}`}`;
      this.#end({ reason: 'crashed', detail: lastError ? `${how} (${lastError})` : how });
    };
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    else child.once('exit', onExit);
    const bind: ProcessControlMessage = { type: 'bind', version: PROTOCOL_VERSION, session };
    send(bind);
  }

  /** Whether the process is still usable. */
  get alive(): boolean {
    return this.#ended === undefined;
  }

  /** Runs a tool call; a crash ends every pending call with WORKER_CRASHED. The session owns the deadline (see BoundWorker.call). */
  async call(name: string, args: Record<string, unknown>, timeoutMs: number, callId: string, prefetched?: Prefetched): Promise<ToolResult> {
    if (this.#ended) return endedResult(this.#ended, name, timeoutMs);
    try {
      const outcome = await this.#untilEnd(this.#host.callTool(name, args, callId, prefetched));
      if (!('ended' in outcome)) return outcome.value;
      // Answer only once the process is gone, so a TIMEOUT means the tool can do nothing more.
      await this.#stopped;
      return endedResult(outcome.ended, name, timeoutMs);
    } catch (error) {
      const end: WorkerEnd = this.#ended ?? { reason: 'crashed', detail: error instanceof Error ? error.message : String(error) };
      return endedResult(end, name, timeoutMs);
    }
  }

  /** Listing entries of the host tools the process loaded; throws when a module failed to load or the process ended. */
  async describeHostTools(): Promise<Awaited<ReturnType<ToolHostApi['describeHostTools']>>> {
    const outcome = await this.#untilEnd(this.#host.describeHostTools());
    if ('ended' in outcome) throw new Error(`the isolated tool process ended: ${outcome.ended.detail}`);
    return outcome.value;
  }

  /** Kills the process (SIGKILL: tool code may ignore SIGTERM) and waits until it is gone. */
  terminate(end: WorkerEnd = { reason: 'closed', detail: 'the session closed' }): Promise<void> {
    this.#stopped ??= this.#kill();
    this.#end(end);
    return this.#stopped;
  }

  /** The process's captured stdout and stderr, oldest line first. */
  get output(): readonly string[] {
    return this.#process.output;
  }

  async #kill(): Promise<void> {
    const { child } = this.#process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Settles with the work's value, or with the end when the process ends first. */
  async #untilEnd<T>(work: Promise<T>): Promise<{ value: T } | { ended: WorkerEnd }> {
    if (this.#ended) return { ended: this.#ended };
    let settleEnd!: (end: WorkerEnd) => void;
    const ended = new Promise<{ ended: WorkerEnd }>((resolve) => (settleEnd = (end) => resolve({ ended: end })));
    this.#pending.add(settleEnd);
    try {
      return await Promise.race([work.then((value) => ({ value })), ended]);
    } finally {
      this.#pending.delete(settleEnd);
    }
  }

  #end(end: WorkerEnd): void {
    if (this.#ended) return;
    this.#ended = end;
    for (const settle of this.#pending) settle(end);
    this.#pending.clear();
    this.#onEnd(end);
  }
}

function endedResult(end: WorkerEnd, name: string, timeoutMs: number): ToolResult {
  switch (end.reason) {
    case 'timeout':
      return errorResult('TIMEOUT', `${name} did not finish within toolTimeoutMs=${timeoutMs}; its tool process was killed and the session stays usable`);
    case 'closed':
      return errorResult('SESSION_CLOSED', `${name} was cut short: ${end.detail}`);
    case 'crashed':
      return errorResult('WORKER_CRASHED', `${name} failed because ${end.detail}; the tool process is replaced and the session stays usable`);
  }
}
