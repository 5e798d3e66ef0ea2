/**
 * How an idle tool host (a pooled worker, a started tool process) comes up: it posts `ready` once started, and is then
 * bound to the one session it serves through its control plane (tool-host-control.ts, over comlink). Only then do
 * the tool host and broker protocols run.
 */

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

/** What a tool host says of its own state before its control plane runs. */
export type HostStateMessage = { type: 'ready' };

/**
 * The ports a session worker is started with (in `workerData`): one per protocol, so a comlink release on the
 * control port can never close another.
 */
export interface WorkerPorts {
  hostPort: unknown;
  brokerPort: unknown;
  controlPort: unknown;
}

/** Whether a message is a tool host's state message of `type`. */
export function isHostState(message: unknown, type: HostStateMessage['type']): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
