import { isChannelEnvelope, type ChannelEnvelope, type ChannelName } from './process-ipc.js';
import type { Transport } from './transport.js';

/**
 * Multiplexes the logical channels (broker, tool host, control) over one IPC channel and gives a transport per
 * channel. Both ends attach their channels before anything can arrive on them (the runtime at construction, the
 * process at start for control and when it is bound for the others, which the control plane's bind precedes any call
 * with), so a message for a channel without a listener is dropped.
 */
export class IpcChannels {
  readonly #send: (envelope: ChannelEnvelope) => void;
  readonly #listeners: Record<ChannelName, ((data: unknown) => void)[]> = { broker: [], host: [], control: [] };

  /** `send` puts an envelope on the IPC channel; it must not throw when the channel is gone. */
  constructor(send: (envelope: ChannelEnvelope) => void) {
    this.#send = send;
  }

  /** Routes a message received on the IPC channel; false when it is not a channel envelope. */
  deliver(message: unknown): boolean {
    if (!isChannelEnvelope(message)) return false;
    for (const listener of this.#listeners[message.channel]) listener(message.data);
    return true;
  }

  /** The transport of one channel. */
  transport(channel: ChannelName): Transport {
    return {
      post: (data: unknown) => this.#send({ type: 'channel', channel, data }),
      listen: (listener) => void this.#listeners[channel].push(listener),
    };
  }
}
