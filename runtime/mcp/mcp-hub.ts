import { ToolwardenError } from '../../src/errors.js';
import { isMcpToolAllowed, parseMcpEntries } from '../../src/mcp/entries.js';
import type { McpEntry } from '../../src/mcp/entries.js';
import { fillSecretPlaceholders, secretsUsedBy } from '../../src/mcp/placeholders.js';
import { validateMcpServerConfig, validateMcpServers } from '../../src/mcp/server-config.js';
import type { McpServerConfig, McpServersOption } from '../../src/mcp/server-config.js';
import { createTenantContext, resolveTenant } from '../../src/tenants/tenant-config.js';
import type { TenantsOption } from '../../src/tenants/tenant-config.js';
import { validateTenants } from '../../src/tenants/validate-tenants.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { McpConnection } from './mcp-connection.js';
import type { McpToolInfo } from './tool-listing.js';

/** Options of an {@link McpHub}. */
export interface McpHubOptions {
  /** Time a server has to start and answer `initialize`. @default 30000 */
  connectTimeoutMs?: number;
}

/** Called when a server's tool list changed (`user` is set for a per-user connection). */
export type ToolsChangedListener = (serverId: string, user: string | undefined) => void;

interface Route {
  connection: McpConnection;
  /** The tenant's MCP entries, when the user has a tenant; they bound what the hub lists and calls. */
  tenantEntries: McpEntry[] | undefined;
}

/**
 * Owns every MCP connection of a runtime, on the main thread. One shared connection per server; per-user
 * servers (`perUser: true` or a config function) get one connection per user, built with that user's
 * secrets and never shared. Connects lazily and reconnects after a failure.
 * @example
 * const hub = new McpHub({ gh: { command: 'gh-mcp', env: { TOKEN: '${user.token}' }, perUser: true } }, { alice: { mcpServers: ['gh'], secrets: { token: 't' } } });
 * await hub.callTool('gh', 'list_issues', {}, 'alice');
 */
export class McpHub {
  readonly #servers: McpServersOption;
  readonly #tenants: TenantsOption | undefined;
  readonly #connectTimeoutMs: number;
  readonly #connections = new Map<string, McpConnection>();
  readonly #listeners = new Set<ToolsChangedListener>();
  #closed = false;

  constructor(servers: McpServersOption, tenants?: TenantsOption, options: McpHubOptions = {}) {
    this.#servers = validateMcpServers(servers);
    this.#tenants = tenants === undefined ? undefined : validateTenants(tenants, Object.keys(servers));
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  }

  /** The configured server ids. */
  get serverIds(): string[] {
    return Object.keys(this.#servers);
  }

  /** Whether a server connects once per user (`perUser: true` or a config function), so a session needs a user. */
  isPerUser(serverId: string): boolean {
    const config = Object.hasOwn(this.#servers, serverId) ? this.#servers[serverId] : undefined;
    return typeof config === 'function' || config?.perUser === true;
  }

  /**
   * The server's tools (cached per connection, refreshed after `notifications/tools/list_changed`), limited
   * to the user's tenant allowance when the user has a tenant. `signal` ends a listing still paging (its session
   * closed); the server's `limits` bound it anyway.
   * @throws ToolwardenError TOOL_NOT_ALLOWED, ESCALATION (unknown user), INVALID_OPTIONS (missing secret), MCP_ERROR.
   */
  async listTools(serverId: string, user?: string, signal?: AbortSignal): Promise<McpToolInfo[]> {
    const { connection, tenantEntries } = this.#route(serverId, user);
    const tools = await connection.listTools(signal);
    return tenantEntries ? tools.filter((tool) => isMcpToolAllowed(tenantEntries, serverId, tool.name)) : tools;
  }

  /**
   * Calls one tool. Never throws: a refused call, a server that cannot start or fails mid-call resolves with
   * `isError` and a code (MCP_ERROR, TIMEOUT, TOOL_NOT_ALLOWED, ...); a tool's own `isError` passes through.
   */
  async callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    user?: string,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<ToolResult> {
    try {
      const { connection, tenantEntries } = this.#route(serverId, user);
      if (tenantEntries && !isMcpToolAllowed(tenantEntries, serverId, tool)) {
        throw new ToolwardenError('TOOL_NOT_ALLOWED', `MCP tool '${tool}' of server '${serverId}' is not in the allowance of user '${user ?? ''}'`);
      }
      return await connection.callTool(tool, args, signal, timeoutMs);
    } catch (error) {
      if (error instanceof ToolwardenError) return errorResult(error.code, error.message);
      return errorResult('MCP_ERROR', `MCP server '${serverId}' failed on tool '${tool}': ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Subscribes to tool list changes; returns the unsubscribe function. */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Closes the user's own connections (per-user servers), e.g. when their last session has closed: a long-running
   * multi-tenant runtime must not keep a server process for every user it has ever seen. The next use reconnects,
   * with the user's secrets as they are then.
   */
  async releaseUser(user: string): Promise<void> {
    const suffix = `\u0000${user}`;
    const mine = [...this.#connections].filter(([key]) => key.endsWith(suffix));
    for (const [key] of mine) this.#connections.delete(key);
    await Promise.all(mine.map(([, connection]) => connection.close()));
  }

  /** Closes every connection; stdio children are ended (stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  #route(serverId: string, user: string | undefined): Route {
    if (this.#closed) throw new ToolwardenError('MCP_ERROR', `MCP server '${serverId}': the MCP hub is closed`);
    const config = Object.hasOwn(this.#servers, serverId) ? this.#servers[serverId] : undefined;
    if (config === undefined) {
      throw new ToolwardenError('TOOL_NOT_ALLOWED', `unknown MCP server '${serverId}' (configured: ${this.serverIds.join(', ') || 'none'})`);
    }
    const tenant = resolveTenant(this.#tenants, user);
    const tenantEntries = tenant ? parseMcpEntries(tenant.mcpServers ?? [], this.serverIds) : undefined;
    if (tenantEntries && !tenantEntries.some((entry) => entry.serverId === serverId)) {
      throw new ToolwardenError('TOOL_NOT_ALLOWED', `MCP server '${serverId}' is not in the allowance of user '${user ?? ''}'`);
    }
    const perUser = typeof config === 'function' || config.perUser === true;
    if (perUser && user === undefined) {
      throw new ToolwardenError('MCP_ERROR', `MCP server '${serverId}' is per-user: only a session with a user can use it`);
    }
    const key = perUser ? `${serverId}\u0000${user}` : serverId;
    let connection = this.#connections.get(key);
    if (!connection) {
      const built = perUser ? this.#buildUserConfig(serverId, config, user ?? '') : { config: config as McpServerConfig, secrets: {} };
      const notifyUser = perUser ? user : undefined;
      connection = new McpConnection(serverId, built.config, this.#connectTimeoutMs, () => this.#notify(serverId, notifyUser), built.secrets);
      this.#connections.set(key, connection);
    }
    return { connection, tenantEntries };
  }

  /**
   * A per-user server's config for `user`, and the secrets its connection keeps out of results: a stdio server's env
   * is filled now; an HTTP server's headers keep their placeholders, filled per request for its own origin only; a
   * config function received every secret of the user, so all of them are redacted.
   */
  #buildUserConfig(serverId: string, config: McpServersOption[string], user: string): { config: McpServerConfig; secrets: Record<string, string> } {
    const context = createTenantContext(user, resolveTenant(this.#tenants, user));
    if (typeof config !== 'function') {
      const secrets = secretsUsedBy(config, context, serverId);
      return { config: 'command' in config ? fillSecretPlaceholders(config, context, serverId) : { ...config }, secrets };
    }
    let built: unknown;
    try {
      built = config(context);
    } catch (error) {
      throw new ToolwardenError('INVALID_OPTIONS', `mcpServers.${serverId}: the config function threw for user '${user}': ${(error as Error).message}`);
    }
    return { config: validateMcpServerConfig(serverId, built), secrets: { ...context.secrets } };
  }

  #notify(serverId: string, user: string | undefined): void {
    for (const listener of this.#listeners) {
      try {
        listener(serverId, user);
      } catch {
        // A listener's bug must not break the MCP client's notification handling.
      }
    }
  }
}
