import type { Prefetched } from '../protocol.js';
import type { ToolResult } from '../tool-result.js';
import type { ToolInfo } from '../tools/tool-info.js';

/**
 * The tool host protocol: what the main thread asks a session worker or tool process to do, and the answers. Plain
 * data, versioned, one union per direction, `seq` pairing an answer with its request; one standing listener at each
 * end (comlink's proxies cost about twice a plain round trip).
 */
export const TOOL_HOST_PROTOCOL_VERSION = 2;

/** What a call's tool code is told of its call while it runs: its deadline moves, or it is cancelled. */
export interface CallControl {
  /** Aborted when the main thread cancels the call, or shortly before its deadline (ctx.signal); made when first read. */
  readonly signal: AbortSignal;
  /** Why the call was cancelled or timed out, once it was (without making the signal). */
  readonly abortReason: Error | undefined;
}

/** What a tool host (session worker, tool process) offers the main thread; each method is one request below. */
export interface ToolHostApi {
  /**
   * Runs a tool. `callId` is the call's broker capability: every broker request the call makes carries it (see
   * broker.ts); `prefetched` carries broker answers the main thread computed with the call (see {@link Prefetched});
   * `control` tells the call's code of a cancel or a moved deadline (a host tool's `ctx.signal`).
   */
  callTool(name: string, args: Record<string, unknown>, callId: string, prefetched: Prefetched | undefined, control: CallControl): Promise<ToolResult>;
  /** Listing entries of the host tools this host loaded. */
  describeHostTools(): Promise<ToolInfo[]>;
}

/** A request from the main thread. `deadline` is epoch milliseconds (each thread has its own `performance` origin). */
export type ToolHostRequest =
  | { v: typeof TOOL_HOST_PROTOCOL_VERSION; type: 'call'; seq: number; name: string; args: Record<string, unknown>; callId: string; deadline?: number; limit?: string; prefetched?: Prefetched }
  /** The call `seq` ended early (aborted, the session closed): its signal aborts with this code and message. No answer. */
  | { v: typeof TOOL_HOST_PROTOCOL_VERSION; type: 'cancel'; seq: number; code: string; message: string }
  /** The call `seq`'s deadline moved. No answer. */
  | { v: typeof TOOL_HOST_PROTOCOL_VERSION; type: 'deadline'; seq: number; deadline: number };

/** An answer from the tool host. */
export type ToolHostReply =
  | { v: typeof TOOL_HOST_PROTOCOL_VERSION; type: 'result'; seq: number; result: ToolResult }
  | { v: typeof TOOL_HOST_PROTOCOL_VERSION; type: 'failed'; seq: number; message: string };

/** Whether a message from the main thread is a tool host request (the worker trusts its sender; this sorts messages). */
export function isToolHostRequest(data: unknown): data is ToolHostRequest {
  if (!isVersioned(data)) return false;
  switch (data['type']) {
    case 'call':
      return typeof data['name'] === 'string' && typeof data['callId'] === 'string' && typeof data['args'] === 'object' && data['args'] !== null;
    case 'cancel':
      return typeof data['code'] === 'string' && typeof data['message'] === 'string';
    case 'deadline':
      return typeof data['deadline'] === 'number';
    default:
      return false;
  }
}

/**
 * Whether a message from a worker or tool process is a well-formed answer. The main thread takes nothing else: a
 * result must be a ToolResult (an array of typed content blocks), a listing an array of named tool entries.
 */
export function isToolHostReply(data: unknown): data is ToolHostReply {
  if (!isVersioned(data)) return false;
  switch (data['type']) {
    case 'result':
      return isToolResult(data['result']);
    case 'failed':
      return typeof data['message'] === 'string';
    default:
      return false;
  }
}

function isVersioned(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && (data as { v?: unknown }).v === TOOL_HOST_PROTOCOL_VERSION && Number.isSafeInteger((data as { seq?: unknown }).seq);
}

function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every((block: unknown) => typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string');
}
