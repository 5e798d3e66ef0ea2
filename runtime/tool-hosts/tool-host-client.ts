import type { Prefetched } from '../../src/protocol.js';
import { isToolHostReply, TOOL_HOST_PROTOCOL_VERSION, type ToolHostReply, type ToolHostRequest } from '../../src/protocol/tool-host.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import type { Transport } from '../../src/protocol/transport.js';

type Settle = (reply: ToolHostReply | Error) => void;

/**
 * The main thread's end of the tool host protocol (src/protocol/tool-host.ts) over one transport: one standing
 * listener, pending requests by `seq`. Answers that are not well-formed are dropped; `close` fails what is pending.
 */
export class ToolHostClient {
  readonly #transport: Transport<ToolHostRequest>;
  readonly #pending = new Map<number, Settle>();
  #seq = 0;
  #closed: Error | undefined;

  constructor(transport: Transport<ToolHostRequest>) {
    this.#transport = transport;
    transport.listen((data) => {
      if (!isToolHostReply(data)) return;
      const settle = this.#pending.get(data.seq);
      if (!settle) return;
      this.#pending.delete(data.seq);
      settle(data);
    });
  }

  /** Runs a tool call in the host. */
  async callTool(name: string, args: Record<string, unknown>, callId: string, prefetched?: Prefetched): Promise<ToolResult> {
    const reply = await this.#ask((seq) => ({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'call', seq, name, args, callId, ...(prefetched === undefined ? {} : { prefetched }) }));
    if (reply.type === 'result') return reply.result;
    throw new Error(reply.type === 'failed' ? reply.message : `the tool host answered a call with ${reply.type}`);
  }

  /** The listing entries of the host tools the host loaded; throws with the host's reason when it cannot list them. */
  async describeHostTools(): Promise<ToolInfo[]> {
    const reply = await this.#ask((seq) => ({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'describe', seq }));
    if (reply.type === 'described') return reply.tools;
    throw new Error(reply.type === 'failed' ? reply.message : `the tool host answered a listing with ${reply.type}`);
  }

  /** Fails every pending request and refuses new ones (the host is gone). */
  close(reason: string): void {
    this.#closed ??= new Error(reason);
    for (const settle of this.#pending.values()) settle(this.#closed);
    this.#pending.clear();
  }

  #ask(request: (seq: number) => ToolHostRequest): Promise<ToolHostReply> {
    if (this.#closed) return Promise.reject(this.#closed);
    const seq = (this.#seq += 1);
    return new Promise<ToolHostReply>((resolve, reject) => {
      this.#pending.set(seq, (reply) => (reply instanceof Error ? reject(reply) : resolve(reply)));
      this.#transport.post(request(seq));
    });
  }
}
