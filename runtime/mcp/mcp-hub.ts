import { ToolwardenError } from '../../src/errors.js';
import { isMcpToolAllowed, parseMcpEntries } from '../../src/mcp/entries.js';
import type { McpEntry } from '../../src/mcp/entries.js';
import { fillSecretPlaceholders, secretsUsedBy } from '../../src/mcp/placeholders.js';
import { validateMcpServerConfig, validateMcpServers } from '../../src/mcp/server-config.js';
import type { McpServerConfig, McpServersOption } from '../../src/mcp/server-config.js';
import { credentialsFingerprint, credentialsNamedBy, placeServerCredentials } from '../../src/mcp/server-credentials.js';
import type { Credentials, PlacedCredential } from '../../src/net/egress/credentials.js';
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

/** One live connection and the user it belongs to (per-user servers), so a user's connections can be closed. */
interface Held {
  connection: McpConnection;
  user: string | undefined;
}

interface Route {
  connection: McpConnection;
  /** The tenant's MCP entries, when the user has a tenant; they bound what the hub lists and calls. */
  tenantEntries: McpEntry[] | undefined;
}

/**
 * Owns every MCP connection of a runtime, on the main thread. One shared connection per server; per-user
 * servers (`perUser: true` or a config function) get one connection per user and per set of the calling session's
 * credentials its headers name, built with that user's secrets and those credentials, and never shared beyond them.
 * Connects lazily and reconnects after a failure.
 * @example
 * const hub = new McpHub({ gh: { command: 'gh-mcp', env: { TOKEN: '${user.token}' }, perUser: true } }, { alice: { mcpServers: ['gh'], secrets: { token: 't' } } });
 * await hub.callTool('gh', 'list_issues', {}, 'alice');
 */
export class McpHub {
  readonly #servers: McpServersOption;
  readonly #tenants: TenantsOption | undefined;
  readonly #connectTimeoutMs: number;
  readonly #connections = new Map<string, Held>();
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
   * closed); the server's `limits` bound it anyway. `credentials` are the calling session's, which a per-user
   * server's headers may name.
   * @throws ToolwardenError TOOL_NOT_ALLOWED, ESCALATION (unknown user), INVALID_OPTIONS (missing secret or credential), MCP_ERROR.
   */
  async listTools(serverId: string, user?: string, signal?: AbortSignal, credentials: Credentials = {}): Promise<McpToolInfo[]> {
    const { connection, tenantEntries } = this.#route(serverId, user, credentials);
    const tools = await connection.listTools(signal);
    return tenantEntries ? tools.filter((tool) => isMcpToolAllowed(tenantEntries, serverId, tool.name)) : tools;
  }

  /**
   * Calls one tool. Never throws: a refused call, a server that cannot start or fails mid-call resolves with
   * `isError` and a code (MCP_ERROR, TIMEOUT, TOOL_NOT_ALLOWED, ...); a tool's own `isError` passes through.
   * `credentials` are the calling session's, as for {@link listTools}.
   */
  async callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    user?: string,
    signal?: AbortSignal,
    timeoutMs?: number,
    credentials: Credentials = {},
  ): Promise<ToolResult> {
    try {
      const { connection, tenantEntries } = this.#route(serverId, user, credentials);
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
    const mine = [...this.#connections].filter(([, held]) => held.user === user);
    for (const [key] of mine) this.#connections.delete(key);
    await Promise.all(mine.map(([, held]) => held.connection.close()));
  }

  /** Closes every connection; stdio children are ended (stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(connections.map((held) => held.connection.close()));
  }

  #route(serverId: string, user: string | undefined, credentials: Credentials): Route {
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
    // Sessions of one user share a connection only when the credentials its headers name are the same; what a config
    // function will name is not known before it runs, so there every credential of the session counts.
    const named = !perUser ? [] : typeof config === 'function' ? Object.keys(credentials) : credentialsNamedBy(config);
    const key = JSON.stringify(perUser ? [serverId, user, credentialsFingerprint(credentials, named)] : [serverId]);
    let held = this.#connections.get(key);
    if (!held) {
      const built = perUser ? this.#buildUserConfig(serverId, config, user ?? '', credentials) : { config: config as McpServerConfig, credentials: [] };
      const notifyUser = perUser ? user : undefined;
      held = { connection: new McpConnection(serverId, built.config, this.#connectTimeoutMs, () => this.#notify(serverId, notifyUser), built.credentials), user: notifyUser };
      this.#connections.set(key, held);
    }
    return { connection: held.connection, tenantEntries };
  }

  /**
   * A per-user server's config for `user`, and the credentials its connection fills in and keeps out of results: a
   * stdio server's env is filled now with the secrets it names; an HTTP server's headers keep their placeholders,
   * filled per request for each credential's hosts (a `${user.<secret>}` for the server's own host and port only); a
   * config function received every secret of the user, so all of them are masked.
   * @throws ToolwardenError INVALID_OPTIONS naming a missing secret or credential, or a server outside a credential's hosts
   */
  #buildUserConfig(serverId: string, config: McpServersOption[string], user: string, credentials: Credentials): { config: McpServerConfig; credentials: PlacedCredential[] } {
    const context = createTenantContext(user, resolveTenant(this.#tenants, user));
    let built: McpServerConfig;
    let secrets: Readonly<Record<string, string>>;
    if (typeof config !== 'function') {
      secrets = secretsUsedBy(config, context, serverId);
      built = 'command' in config ? fillSecretPlaceholders(config, context, serverId) : { ...config };
    } else {
      let made: unknown;
      try {
        made = config(context);
      } catch (error) {
        throw new ToolwardenError('INVALID_OPTIONS', `mcpServers.${serverId}: the config function threw for user '${user}': ${(error as Error).message}`);
      }
      built = validateMcpServerConfig(serverId, made);
      secrets = context.secrets;
    }
    if (!('command' in built)) return { config: built, credentials: placeServerCredentials(serverId, built, credentials, secrets) };
    // A stdio server holds its values itself: they are only masked in what it sends back.
    return { config: built, credentials: Object.entries(secrets).map(([name, value]) => ({ name, value, hosts: [], placeholder: `\${user.${name}}` })) };
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
