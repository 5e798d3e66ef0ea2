import { performance } from 'node:perf_hooks';
import type { Prefetched } from '../../src/protocol.js';
import { isToolHostReply, TOOL_HOST_PROTOCOL_VERSION, type ToolHostReply, type ToolHostRequest } from '../../src/protocol/tool-host.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { Transport } from '../../src/protocol/transport.js';
import type { RemoteCall } from '../calls/call-context.js';

/**
 * One request waiting for its answer. For a call it is also the call's handle in the host: a cancel or a moved
 * deadline goes to the host under the call's `seq` (the one object a call costs here, besides its promise).
 */
class PendingRequest implements RemoteCall {
  readonly seq: number;
  readonly #transport: Transport<ToolHostRequest>;
  resolve!: (reply: ToolHostReply) => void;
  reject!: (error: Error) => void;
  settled = false;

  constructor(seq: number, transport: Transport<ToolHostRequest>) {
    this.seq = seq;
    this.#transport = transport;
  }

  cancel(code: string, message: string): void {
    if (!this.settled) this.#transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'cancel', seq: this.seq, code, message });
  }

  moveDeadline(deadline: number): void {
    if (!this.settled) this.#transport.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'deadline', seq: this.seq, deadline: toEpoch(deadline) });
  }
}

/** What a call is run in, as the host needs it: its deadline and limit, and where to attach the call's handle. */
export interface RemoteCallSlot {
  readonly deadline: number;
  readonly limit: string;
  /** Hands the call's handle in the host to the call, so an early end or a moved deadline reaches the host. */
  attach(remote: RemoteCall): void;
}

/**
 * The main thread's end of the tool host protocol (src/protocol/tool-host.ts) over one transport: one standing
 * listener, pending requests by `seq`. Answers that are not well-formed are dropped; `close` fails what is pending.
 */
export class ToolHostClient {
  readonly #transport: Transport<ToolHostRequest>;
  readonly #pending = new Map<number, PendingRequest>();
  #seq = 0;
  #closed: Error | undefined;

  constructor(transport: Transport<ToolHostRequest>) {
    this.#transport = transport;
    transport.listen((data) => {
      if (!isToolHostReply(data)) return;
      const pending = this.#pending.get(data.seq);
      if (!pending) return;
      this.#pending.delete(data.seq);
      pending.settled = true;
      pending.resolve(data);
    });
  }

  /** Runs a tool call in the host, told of the call's deadline; the call gets its handle there through `slot`. */
  async callTool(name: string, args: Record<string, unknown>, callId: string, slot: RemoteCallSlot, prefetched?: Prefetched): Promise<ToolResult> {
    const { deadline, limit } = slot;
    const reply = await this.#ask(
      (seq) => ({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'call', seq, name, args, callId, limit, ...(Number.isFinite(deadline) ? { deadline: toEpoch(deadline) } : {}), ...(prefetched === undefined ? {} : { prefetched }) }),
      slot,
    );
    if (reply.type === 'result') return reply.result;
    throw new Error(reply.message);
  }

  /** Fails every pending request and refuses new ones (the host is gone). */
  close(reason: string): void {
    this.#closed ??= new Error(reason);
    for (const pending of this.#pending.values()) {
      pending.settled = true;
      pending.reject(this.#closed);
    }
    this.#pending.clear();
  }

  #ask(request: (seq: number) => ToolHostRequest, slot: RemoteCallSlot): Promise<ToolHostReply> {
    if (this.#closed) return Promise.reject(this.#closed);
    const pending = new PendingRequest((this.#seq += 1), this.#transport);
    const reply = new Promise<ToolHostReply>((resolve, reject) => {
      pending.resolve = resolve;
      pending.reject = reject;
    });
    this.#pending.set(pending.seq, pending);
    this.#transport.post(request(pending.seq));
    slot.attach(pending);
    return reply;
  }
}

/** A `performance.now()` time of this thread as epoch milliseconds, which the host turns into its own clock's. */
function toEpoch(time: number): number {
  return performance.timeOrigin + time;
}
