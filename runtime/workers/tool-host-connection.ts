import type { Prefetched, ToolHostApi } from '../../src/protocol.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { WorkerEnd } from './bound-worker.js';

/**
 * A session's tool host as the session sees it, wherever it runs: a worker thread ({@link BoundWorker}) or a child
 * process under Node's permission model (BoundProcess). Both speak the same protocols
 * (src/protocol/tool-host.ts to the tool host, src/protocol/broker.ts to the broker), one standing listener each.
 */
export interface ToolHostConnection {
  /** Whether the host is still usable; a dead one is replaced on the next call. */
  readonly alive: boolean;
  /**
   * Runs a tool call under its broker capability `callId`; a crash ends pending calls with WORKER_CRASHED. The session
   * keeps the deadline and stops a host whose own code overran (TIMEOUT, `timeoutMs` named in the message).
   */
  call(name: string, args: Record<string, unknown>, timeoutMs: number, callId: string, prefetched?: Prefetched): Promise<ToolResult>;
  /** Listing entries of the host tools the host loaded; throws when a module failed to load. */
  describeHostTools(): Promise<Awaited<ReturnType<ToolHostApi['describeHostTools']>>>;
  /** Stops the host; pending calls end with the given reason. */
  terminate(end?: WorkerEnd): Promise<void>;
  /** The host's captured stdout and stderr, oldest line first. */
  readonly output: readonly string[];
}
