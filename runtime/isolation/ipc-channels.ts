import type { Endpoint } from 'comlink';
import { isChannelEnvelope, type ChannelEnvelope, type ChannelName } from './process-protocol.js';

type Handler = Parameters<Endpoint['addEventListener']>[1];
type Deliver = (data: unknown) => void;

/**
 * Multiplexes the two logical comlink channels over one IPC channel and gives comlink an endpoint per channel.
 * Both ends attach their channels before anything can arrive on them (the runtime at construction, the process when
 * it handles `bind`, which IPC delivers before any call), so a message for a channel without listeners is dropped.
 */
export class IpcChannels {
  readonly #send: (envelope: ChannelEnvelope) => void;
  readonly #listeners: Record<ChannelName, Set<Deliver>> = { broker: new Set(), host: new Set() };

  /** `send` puts an envelope on the IPC channel; it must not throw when the channel is gone. */
  constructor(send: (envelope: ChannelEnvelope) => void) {
    this.#send = send;
  }

  /** Routes a message received on the IPC channel; false when it is not a channel envelope. */
  deliver(message: unknown): boolean {
    if (!isChannelEnvelope(message)) return false;
    for (const listener of [...this.#listeners[message.channel]]) listener(message.data);
    return true;
  }

  /** A comlink-shaped endpoint for one channel. */
  endpoint(channel: ChannelName): Endpoint {
    const listeners = this.#listeners[channel];
    const wrapped = new Map<Handler, Deliver>();
    return {
      postMessage: (data: unknown) => this.#send({ type: 'channel', channel, data }),
      addEventListener: (_type: string, handler: Handler) => {
        const deliver: Deliver = (data) => {
          const event = { data } as MessageEvent;
          if (typeof handler === 'function') handler(event);
          else handler.handleEvent(event);
        };
        wrapped.set(handler, deliver);
        listeners.add(deliver);
      },
      removeEventListener: (_type: string, handler: Handler) => {
        const deliver = wrapped.get(handler);
        if (deliver) listeners.delete(deliver);
        wrapped.delete(handler);
      },
    };
  }
}
