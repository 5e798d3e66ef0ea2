import type { Endpoint } from 'comlink';
import type { ToolInfo } from '../tools/tool-info.js';
import type { Transport } from './transport.js';
import type { BoundSessionInfo } from './worker-bind.js';

/**
 * The control plane of a tool host, over comlink: binding an idle host to its session and listing the host tools it
 * loaded. These are a few calls per host, where a typed proxy is worth more than microseconds; the calls of tools, and
 * the broker's requests, run on the lean protocols (tool-host.ts, broker.ts) beside it.
 */
export interface ToolHostControl {
  /**
   * Binds the idle host to its session; resolves once its broker and tool host channels are served. (Not `bind`:
   * comlink's proxy takes `.bind()` for Function.prototype.bind and drops it.)
   */
  bindSession(session: BoundSessionInfo): Promise<void>;
  /** Listing entries of the host tools the host loaded; rejects with the reason when a module failed to load. */
  describeHostTools(): Promise<ToolInfo[]>;
}

/**
 * A comlink endpoint over a transport (a tool process's IPC lane, an in-memory pair): comlink adds and removes a
 * listener per request, which a transport's one standing listener fans out to. A MessagePort is an endpoint already.
 */
export function transportEndpoint(transport: Transport): Endpoint {
  const listeners = new Set<MessageListener>();
  transport.listen((data) => {
    for (const listener of [...listeners]) {
      if (typeof listener === 'function') listener({ data });
      else listener.handleEvent({ data });
    }
  });
  return {
    postMessage: (message: unknown) => transport.post(message),
    addEventListener: (_type: string, listener: unknown) => void listeners.add(listener as MessageListener),
    removeEventListener: (_type: string, listener: unknown) => void listeners.delete(listener as MessageListener),
  } as Endpoint;
}

/** What comlink listens with: a function or an object with `handleEvent`, given `{ data }`. */
type MessageListener = ((event: { data: unknown }) => void) | { handleEvent(event: { data: unknown }): void };
