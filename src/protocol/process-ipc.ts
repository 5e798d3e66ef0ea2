import { PROTOCOL_VERSION, type BoundSessionInfo } from '../protocol.js';

/**
 * Messages on the IPC channel between the runtime and a tool host process. MessagePorts cannot cross IPC, so the two
 * logical channels of the worker protocol (the broker the runtime exposes, the tool host the process exposes) travel
 * as envelopes tagged with their channel; everything else is a control message.
 */
export type ChannelName = 'broker' | 'host';

/** One message of one logical channel (the broker protocol, or the tool host protocol). */
export interface ChannelEnvelope {
  type: 'channel';
  channel: ChannelName;
  data: unknown;
}

/** Control messages: the process is ready, the runtime binds it to a session, the process has bound. */
export type ProcessControlMessage =
  | { type: 'ready' }
  | { type: 'bind'; version: number; session: BoundSessionInfo }
  | { type: 'bound' };

/** Whether an IPC message is a channel envelope naming a known channel. */
export function isChannelEnvelope(message: unknown): message is ChannelEnvelope {
  if (typeof message !== 'object' || message === null) return false;
  const { type, channel } = message as Partial<ChannelEnvelope>;
  return type === 'channel' && (channel === 'broker' || channel === 'host');
}

/** Whether an IPC message is a bind of this protocol version. */
export function isProcessBind(message: unknown): message is Extract<ProcessControlMessage, { type: 'bind' }> {
  if (typeof message !== 'object' || message === null) return false;
  const { type, version, session } = message as { type?: unknown; version?: unknown; session?: unknown };
  return type === 'bind' && version === PROTOCOL_VERSION && typeof session === 'object' && session !== null;
}

/** Whether an IPC message is the given control message. */
export function isControl(message: unknown, type: 'ready' | 'bound'): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
