import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolwardenError } from '../../src/errors.js';
import type { McpServerConfig } from '../../src/mcp/server-config.js';
import { jsonBytes, maxMessageBytes, overLimit, resolveMcpServerLimits, type ResolvedMcpServerLimits } from '../../src/mcp/server-limits.js';
import { createCredentialMask } from '../../src/net/egress/credential-mask.js';
import type { PlacedCredential } from '../../src/net/egress/credentials.js';
import type { ToolResult } from '../../src/tool-result.js';
import { isConnectionFailure, toCallError, toToolResult } from './call-result.js';
import { createTransport } from './create-transport.js';
import type { StderrTail } from './stderr-tail.js';
import { listAllTools, type McpToolInfo } from './tool-listing.js';

interface Live {
  client: Client;
  stderr: StderrTail | undefined;
  /** Set once the server sent a message past its limit; every request of this connection then fails with it. */
  overflow: ToolwardenError | undefined;
}

/**
 * One client connection to one MCP server (for one user, if per-user). Connects lazily, caches the tool
 * list until the server says it changed, and replaces itself after the transport fails. What the server sends back is
 * bounded by its `limits`. With `credentials` (a per-user connection's), HTTP headers are filled per request for
 * each credential's hosts only, and every result, tool listing and error passes through the one credential mask that
 * replaces the values (as written or encoded) by their placeholders.
 */
export class McpConnection {
  readonly #serverId: string;
  readonly #config: McpServerConfig;
  readonly #credentials: readonly PlacedCredential[];
  readonly #mask: <T>(value: T) => T;
  readonly #limits: ResolvedMcpServerLimits;
  readonly #connectTimeoutMs: number;
  readonly #onToolsChanged: () => void;
  // Aborted by close(): a listing still paging stops at once instead of running on against a closed connection.
  readonly #closing = new AbortController();
  #live: Promise<Live> | undefined;
  #current: Live | undefined;
  #tools: McpToolInfo[] | undefined;
  #toolsGeneration = 0;
  #closed = false;
  readonly #dropping = new Set<Promise<void>>();

  constructor(serverId: string, config: McpServerConfig, connectTimeoutMs: number, onToolsChanged: () => void, credentials: readonly PlacedCredential[] = []) {
    this.#serverId = serverId;
    this.#config = config;
    this.#credentials = credentials;
    this.#mask = createCredentialMask(credentials).value;
    this.#limits = resolveMcpServerLimits(serverId, config.limits);
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#onToolsChanged = onToolsChanged;
  }

  /** The server's tools, from the cache when it is still valid. `signal` ends a listing that is still paging. */
  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    try {
      return await this.#listTools(signal);
    } catch (error) {
      throw this.#maskedError(error);
    }
  }

  /** Calls one tool. Connection and protocol failures throw (the hub turns them into results). */
  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal, timeoutMs?: number): Promise<ToolResult> {
    try {
      return await this.#callTool(tool, args, signal, timeoutMs);
    } catch (error) {
      throw this.#maskedError(error);
    }
  }

  /** Any failure as a ToolwardenError whose message went through the mask (a server may quote a credential back). */
  #maskedError(error: unknown): ToolwardenError {
    if (!(error instanceof ToolwardenError)) {
      return new ToolwardenError('MCP_ERROR', this.#mask(`MCP server '${this.#serverId}' failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    const message = this.#mask(error.message);
    return message === error.message ? error : new ToolwardenError(error.code, message);
  }

  async #listTools(signal: AbortSignal | undefined): Promise<McpToolInfo[]> {
    if (this.#tools) return this.#tools;
    const generation = this.#toolsGeneration;
    const live = await this.#connect();
    const paging = signal ? AbortSignal.any([this.#closing.signal, signal]) : this.#closing.signal;
    let tools: McpToolInfo[];
    try {
      tools = this.#mask(await listAllTools(live.client, this.#serverId, this.#limits, paging));
    } catch (error) {
      throw this.#fail(live, 'tools/list', error, paging);
    }
    // A list that raced with a list_changed notification may already be stale: return it, do not cache it.
    if (generation === this.#toolsGeneration && this.#current === live) this.#tools = tools;
    return tools;
  }

  async #callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal | undefined, timeoutMs: number | undefined): Promise<ToolResult> {
    const live = await this.#connect();
    const options: { signal?: AbortSignal; timeout?: number } = {};
    if (signal) options.signal = signal;
    if (timeoutMs !== undefined) options.timeout = timeoutMs;
    let result: CallToolResult;
    try {
      result = (await live.client.callTool({ name: tool, arguments: args }, undefined, options)) as CallToolResult;
    } catch (error) {
      throw this.#fail(live, tool, error, signal);
    }
    const bytes = jsonBytes(result);
    if (bytes > this.#limits.maxResultBytes) throw overLimit(this.#serverId, 'maxResultBytes', this.#limits.maxResultBytes, `tool '${tool}' returned ${bytes} bytes`);
    return this.#mask(toToolResult(result));
  }

  /** Closes the connection (killing a stdio child); later calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort(new ToolwardenError('MCP_ERROR', `MCP server '${this.#serverId}': the connection is closed`));
    const live = this.#live;
    this.#live = undefined;
    this.#current = undefined;
    const closes = [...this.#dropping];
    if (live) closes.push(live.then((l) => l.client.close(), () => undefined));
    await Promise.all(closes);
  }

  #connect(): Promise<Live> {
    if (this.#closed) return Promise.reject(new ToolwardenError('MCP_ERROR', `MCP server '${this.#serverId}': the connection is closed`));
    if (!this.#live) {
      const live = this.#start();
      this.#live = live;
      // A failed start is not cached: the next use tries again.
      live.catch(() => {
        if (this.#live === live) this.#live = undefined;
      });
    }
    return this.#live;
  }

  async #start(): Promise<Live> {
    const client = new Client({ name: 'toolwarden', version: '0.1.0' }, { capabilities: {} });
    const live: Live = { client, stderr: undefined, overflow: undefined };
    const bound = { maxMessageBytes: maxMessageBytes(this.#limits), overflow: () => this.#overflowed(live) };
    const { transport, stderr, isOverflow } = createTransport(this.#config, this.#credentials, bound);
    live.stderr = stderr;
    client.onerror = (error) => {
      if (isOverflow(error)) this.#overflowed(live);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#invalidateTools();
      this.#onToolsChanged();
    });
    // The transport closed on its own (the child died, the stream ended): the next use reconnects.
    client.onclose = () => this.#drop(live);
    try {
      await client.connect(transport, { timeout: this.#connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      if (live.overflow) throw live.overflow;
      const cause = error instanceof Error ? error.message : String(error);
      const tail = stderr?.text() ? `; last stderr lines:\n${stderr.text()}` : '';
      throw new ToolwardenError('MCP_ERROR', `MCP server '${this.#serverId}' failed to start: ${cause}${tail}`);
    }
    if (this.#closed) {
      await client.close();
      throw new ToolwardenError('MCP_ERROR', `MCP server '${this.#serverId}': the connection is closed`);
    }
    this.#current = live;
    return live;
  }

  #fail(live: Live, what: string, error: unknown, signal: AbortSignal | undefined): ToolwardenError {
    if (live.overflow) return live.overflow;
    if (!signal?.aborted && isConnectionFailure(error)) this.#drop(live);
    if (signal?.aborted && !(signal.reason instanceof ToolwardenError)) {
      return new ToolwardenError('MCP_ERROR', `MCP tool '${what}' of server '${this.#serverId}' was cancelled`);
    }
    return toCallError(this.#serverId, what, error, live.stderr?.text() ?? '');
  }

  /** The server sent a message past its limit: the connection is replaced, and its requests fail naming the limit. */
  #overflowed(live: Live): ToolwardenError {
    const bytes = maxMessageBytes(this.#limits);
    live.overflow ??= overLimit(this.#serverId, 'maxResultBytes', this.#limits.maxResultBytes, `sent a message of more than ${bytes} bytes`);
    this.#drop(live);
    return live.overflow;
  }

  // The next use starts a fresh connection; the old client is closed so a hung child cannot linger.
  #drop(live: Live): void {
    if (this.#current !== live) return;
    this.#current = undefined;
    this.#live = undefined;
    this.#invalidateTools();
    const closing = live.client.close().catch(() => undefined);
    this.#dropping.add(closing);
    void closing.finally(() => this.#dropping.delete(closing));
  }

  #invalidateTools(): void {
    this.#toolsGeneration += 1;
    this.#tools = undefined;
  }
}
