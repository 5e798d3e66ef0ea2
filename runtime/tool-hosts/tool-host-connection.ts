import type { BrokerResponse } from '../../src/protocol/broker.js';
import type { Prefetched } from '../../src/protocol.js';
import type { ToolHostRequest } from '../../src/protocol/tool-host.js';
import type { Transport } from '../../src/protocol/transport.js';
import type { BoundSessionInfo } from '../../src/protocol/worker-bind.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import type { BrokerServer } from '../broker/broker-server.js';
import * as Comlink from 'comlink';
import type { Endpoint } from 'comlink';
import type { ToolHostControl } from '../../src/protocol/tool-host-control.js';
import { ToolHostClient, type RemoteCallSlot } from './tool-host-client.js';

/** Why a tool host stopped. */
export type WorkerEnd = { reason: 'crashed' | 'timeout' | 'closed'; detail: string };

/**
 * Where a tool host runs and how it is reached: what differs between a worker thread (worker-link.ts), a tool
 * process (process-link.ts) and an in-memory host. Everything else is {@link ToolHostConnection}'s.
 */
export interface ToolHostLink {
  /** What the host is called in results, e.g. 'worker' or 'tool process'. */
  readonly kind: string;
  /** The channel the host's broker requests arrive on; the replies go back on it. */
  readonly broker: Transport<BrokerResponse>;
  /** The channel to the host's tool host server. */
  readonly host: Transport<ToolHostRequest>;
  /** The host's control plane (comlink): binding it to its session, listing its host tools (tool-host-control.ts). */
  readonly control: Endpoint;
  /** Registers the listener told once when the host ends by itself (crash, exit, out of memory), with why. */
  onExit(listener: (detail: string) => void): void;
  /** Stops the host; resolves once it is gone, with nothing it ran left running. */
  stop(): Promise<void>;
  /** Closes the channels once the connection has ended. */
  release(): void;
  /** The host's captured stdout and stderr, oldest line first. */
  readonly output: readonly string[];
}

/**
 * A session's tool host connection, the one lifecycle of every host kind: bound at construction through the control
 * plane (which also lists the host tools), the broker served on the link's broker channel (each request checked
 * against the admission of the call it names, so nothing the host sends can widen it), calls over its host channel, one end (a crash, a stop at the deadline, a close)
 * that settles everything pending (it closes the client, which fails every request still waiting).
 */
export class ToolHostConnection {
  readonly #link: ToolHostLink;
  readonly #client: ToolHostClient;
  readonly #onEnd: (end: WorkerEnd) => void;
  #ended: WorkerEnd | undefined;
  /** Set once the host is being stopped; settles when it is gone. */
  #stopped: Promise<void> | undefined;
  readonly #control: Comlink.Remote<ToolHostControl>;
  /** Settles once the host is bound to its session (rejects when it could not be, or ended first). */
  readonly #bound: Promise<void>;
  /** Rejects when the connection ends, so a control call the gone host will never answer settles. */
  readonly #gone: Promise<never>;
  #markGone!: (error: Error) => void;

  constructor(link: ToolHostLink, broker: BrokerServer, session: BoundSessionInfo, onEnd: (end: WorkerEnd) => void) {
    this.#link = link;
    this.#onEnd = onEnd;
    link.broker.listen((data) => broker(data, (response) => link.broker.post(response)));
    this.#client = new ToolHostClient(link.host);
    this.#gone = new Promise<never>((_resolve, reject) => (this.#markGone = reject));
    this.#gone.catch(() => undefined);
    this.#control = Comlink.wrap<ToolHostControl>(link.control);
    link.onExit((detail) => this.#end({ reason: 'crashed', detail }));
    // Bound after the open returns (waking the host costs a tenth of a millisecond); calls made before the bind lands
    // wait in the tool host channel, which the host starts reading once it is bound.
    this.#bound = this.#untilGone(new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#control.bindSession(session)));
    this.#bound.catch(() => undefined);
  }

  /** Whether the host is still usable; a dead one is replaced on the next call. */
  get alive(): boolean {
    return this.#ended === undefined;
  }

  /**
   * Runs a tool call under its broker capability `callId`; a crash ends pending calls with WORKER_CRASHED. The
   * session keeps the deadline and stops a host whose own code overran (TIMEOUT, the context's limit named in the
   * message); such a result is given only once the host is gone, so the tool can do nothing more.
   */
  async call(name: string, args: Record<string, unknown>, call: RemoteCallSlot, callId: string, prefetched?: Prefetched): Promise<ToolResult> {
    if (this.#ended) return this.#endedResult(this.#ended, name, call.limit);
    try {
      return await this.#client.callTool(name, args, callId, call, prefetched);
    } catch (error) {
      // The host ended under the call (the end closes the client, failing what is pending), or it failed the call.
      const end: WorkerEnd = this.#ended ?? { reason: 'crashed', detail: error instanceof Error ? error.message : String(error) };
      await this.#stopped?.catch(() => undefined);
      return this.#endedResult(end, name, call.limit);
    }
  }

  /** Listing entries of the host tools the host loaded; throws when a module failed to load or the host ended. */
  describeHostTools(): Promise<ToolInfo[]> {
    if (this.#ended) return Promise.reject(new Error(this.#ended.detail));
    return this.#untilGone(this.#bound.then(() => this.#control.describeHostTools()));
  }

  /** Stops the host and waits until it is gone; pending calls end with the given reason. */
  terminate(end: WorkerEnd = { reason: 'closed', detail: 'the session closed' }): Promise<void> {
    this.#stopped ??= this.#link.stop();
    this.#end(end);
    return this.#stopped;
  }

  /** The host's captured stdout and stderr, oldest line first. */
  get output(): readonly string[] {
    return this.#link.output;
  }

  /** A control call's answer, or the connection's end, whichever comes first. */
  #untilGone<T>(answer: Promise<T>): Promise<T> {
    return Promise.race([answer, this.#gone]);
  }

  #end(end: WorkerEnd): void {
    if (this.#ended) return;
    this.#ended = end;
    this.#markGone(new Error(end.detail));
    this.#client.close(end.detail);
    this.#link.release();
    this.#onEnd(end);
  }

  #endedResult(end: WorkerEnd, name: string, limit: string): ToolResult {
    const { kind, output } = this.#link;
    switch (end.reason) {
      case 'timeout':
        return errorResult('TIMEOUT', `${name} did not finish within ${limit}; its ${kind} was replaced and the session stays usable`);
      case 'closed':
        return errorResult('SESSION_CLOSED', `${name} was cut short: ${end.detail}`);
      case 'crashed':
        return errorResult(
          'WORKER_CRASHED',
          `${name} failed because ${end.detail}; the ${kind} was replaced and the session stays usable${output.length > 0 ? `. The ${kind}'s last output:\n${output.slice(-5).join('\n')}` : ''}`,
        );
    }
  }
}
