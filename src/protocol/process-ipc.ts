import type { HostStateMessage } from './worker-bind.js';

/**
 * Messages on the IPC channel between the runtime and a tool host process. MessagePorts cannot cross IPC, so the two
 * logical channels a worker has as ports (the broker the runtime exposes, the tool host the process exposes, the
 * control plane) travel as envelopes tagged with their channel (see ipc-channels.ts); the process's `ready` is the one
 * other message (worker-bind.ts).
 */
export type ChannelName = 'broker' | 'host' | 'control';

/** One message of one logical channel (the broker protocol, or the tool host protocol). */
export interface ChannelEnvelope {
  type: 'channel';
  channel: ChannelName;
  data: unknown;
}

/** Everything that travels on a tool process's IPC channel. */
export type ProcessIpcMessage = ChannelEnvelope | HostStateMessage;

/** Whether an IPC message is a channel envelope naming a known channel. */
export function isChannelEnvelope(message: unknown): message is ChannelEnvelope {
  if (typeof message !== 'object' || message === null) return false;
  const { type, channel } = message as Partial<ChannelEnvelope>;
  return type === 'channel' && (channel === 'broker' || channel === 'host' || channel === 'control');
}
