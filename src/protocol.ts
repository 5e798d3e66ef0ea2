import type { PlainError } from './errors.js';
import type { ToolResult } from './tool-result.js';
import type { BrokerRequestType } from './protocol/broker.js';

/** Every broker answer: plain data, so errors keep their code across the thread boundary. */
export type BrokerReply<T> = { ok: true; value: T } | { ok: false; error: PlainError };

/** A directory entry as list_dir reports it. */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size?: number;
}

/** Contents of a file read through the broker. */
export interface BrokeredFile {
  path: string;
  text: string;
  binary: boolean;
  size: number;
}

/** One step of a verified multi-file change, applied all-or-nothing by the broker. */
export interface ChangeStep {
  kind: 'write' | 'delete';
  path: string;
  content?: string;
}

/** The file operations a host tool's `ctx.fs` asks the broker for. */
export type CtxFsOp = 'readFile' | 'writeFile' | 'editFile' | 'list' | 'stat' | 'glob' | 'grep';

/**
 * What the broker offers a session's tool code. Every method checks its request against the session's capability;
 * nothing the worker sends can widen it. Paths are as the tool received them (the broker resolves them).
 * The first group serves the built-in tools; the `ctx*` group serves host tools' `ctx` and applies the permission
 * rules and the audit to each request itself. Across the thread or process boundary each method is one request of
 * the broker protocol (src/protocol/broker.ts), served only within the admission of the call it names.
 */
export interface BrokerApi {
  readFile(path: string): Promise<BrokerReply<BrokeredFile | undefined>>;
  readFileStrict(path: string): Promise<BrokerReply<BrokeredFile>>;
  writeFile(path: string, content: string): Promise<BrokerReply<{ path: string; bytes: number; created: boolean }>>;
  listDir(path: string | undefined): Promise<BrokerReply<{ path: string; entries: DirEntry[]; truncated: boolean }>>;
  glob(pattern: string, path: string | undefined): Promise<BrokerReply<{ paths: string[]; truncated: boolean }>>;
  grep(request: GrepArgs): Promise<BrokerReply<{ matches: { path: string; line: number; text: string }[]; truncated: boolean; filesScanned: number }>>;
  applyChanges(steps: ChangeStep[]): Promise<BrokerReply<{ written: string[]; deleted: string[] }>>;
  ctxFs(op: CtxFsOp, args: Record<string, unknown>): Promise<BrokerReply<unknown>>;
  ctxExec(args: Record<string, unknown>): Promise<ToolResult>;
  ctxFetch(args: Record<string, unknown>): Promise<ToolResult>;
  ctxMcp(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  log(level: 'info' | 'warn' | 'error', message: string, data?: unknown): Promise<void>;
}

// The broker's methods are exactly its request types (src/protocol/broker.ts): a method added to one and not the other
// fails to compile here.
type SameKeys<A, B> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : never;
const brokerMethodsAreRequestTypes: SameKeys<keyof BrokerApi, BrokerRequestType> = true;
void brokerMethodsAreRequestTypes;

/** grep's arguments as the broker takes them. */
export interface GrepArgs {
  pattern: string;
  path?: string | undefined;
  glob?: string | undefined;
  ignoreCase?: boolean | undefined;
  maxResults?: number | undefined;
}

/**
 * Broker answers sent along with a call, saving the worker a round trip for I/O the main thread can predict
 * (read_file's read). They are the broker's own answers for this call only, never input the worker chose.
 */
export interface Prefetched {
  readFileStrict?: { path: string; reply: BrokerReply<BrokeredFile> };
}
