/**
 * The bind protocol: how an idle tool host (a pooled worker, a started tool process) learns the one session it
 * serves. The host posts `ready` once started, the main thread sends one `bind`, the host answers `bound` (or, in a
 * worker, `bind-refused` for another version). Only then do the tool host and broker protocols run.
 */
export const PROTOCOL_VERSION = 1;

/** What a tool host knows of its session. */
export interface BoundSessionInfo {
  id: string;
  workspaceRoot: string;
  readMaxChars: number;
  toolTimeoutMs: number;
  /** Host tool modules to load (file URLs). */
  toolModules: string[];
  user?: string;
}

/** The message that binds an idle tool host to a session. */
export interface BindMessage {
  type: 'bind';
  version: number;
  session: BoundSessionInfo;
}

/** What a tool host says about its own state. */
export type HostStateMessage = { type: 'ready' } | { type: 'bound' } | { type: 'bind-refused'; reason: string };

/** The ports a session worker is started with (in `workerData`), one per direction of its session's protocols. */
export interface WorkerPorts {
  hostPort: unknown;
  brokerPort: unknown;
}

/** Whether a message is a bind of this protocol version. */
export function isBindMessage(message: unknown): message is BindMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { type, version, session } = message as { type?: unknown; version?: unknown; session?: unknown };
  return type === 'bind' && version === PROTOCOL_VERSION && typeof session === 'object' && session !== null;
}

/** Whether a message is the given state message of a tool host. */
export function isHostState(message: unknown, type: HostStateMessage['type']): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
