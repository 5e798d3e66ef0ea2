import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Capability } from '../../src/capability/capability.js';
import { isMcpToolAllowed, mcpToolName, parseMcpEntries, parseMcpToolName, type McpEntry } from '../../src/mcp/index.js';
import { heldCredentials, type Credentials } from '../../src/net/egress/credentials.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import type { McpHub } from '../mcp/index.js';
import { remainingMs, type CallContext } from '../calls/call-context.js';
import type { DirectOutcome } from '../calls/call-plan.js';

/**
 * A session's view of the runtime's MCP servers: only the tools its capability's entries allow are listed or
 * callable, under `mcp__<id>__<tool>` names; everything else is invisible and refused.
 */
export class McpAccess {
  readonly #hub: McpHub | undefined;
  readonly #entries: McpEntry[];
  readonly #user: string | undefined;
  /** The session's credentials, which a per-user server's headers may name (`${credential.NAME}`). */
  readonly #credentials: Credentials;
  readonly #timeoutMs: number;
  // Aborted when the session closes, so a listing it started stops paging then.
  readonly #closed = new AbortController();

  constructor(hub: McpHub | undefined, capability: Capability) {
    this.#hub = hub;
    this.#entries = parseMcpEntries(capability.mcpServers, hub?.serverIds ?? []);
    this.#user = capability.user;
    this.#credentials = heldCredentials(capability.credentials);
    this.#timeoutMs = capability.limits.toolTimeoutMs;
  }

  /** Whether this session may use some tool of the server, as `user` (per-user servers are per user). */
  uses(serverId: string, user: string | undefined): boolean {
    return this.#entries.some((entry) => entry.serverId === serverId) && (user === undefined || user === this.#user);
  }

  /** Whether a full `mcp__id__tool` name is allowed to this session. */
  allows(name: string): boolean {
    const parsed = parseMcpToolName(name);
    return parsed !== undefined && isMcpToolAllowed(this.#entries, parsed.serverId, parsed.tool);
  }

  /** Ends this session's listings still paging; later listings fail at once. */
  close(): void {
    this.#closed.abort(new ToolwardenError('SESSION_CLOSED', 'the session closed while it listed MCP tools'));
  }

  /** Listing entries of the allowed MCP tools. A server that cannot be reached contributes none, and is reported. */
  async listTools(onError: (serverId: string, error: unknown) => void): Promise<ToolInfo[]> {
    const hub = this.#hub;
    if (!hub || this.#entries.length === 0) return [];
    const servers = [...new Set(this.#entries.map((entry) => entry.serverId))];
    const listed = await Promise.all(servers.map(async (serverId) => {
      try {
        const tools = await hub.listTools(serverId, this.#user, this.#closed.signal, this.#credentials);
        return tools
          .filter((tool) => isMcpToolAllowed(this.#entries, serverId, tool.name))
          .map((tool): ToolInfo => ({
            name: mcpToolName(serverId, tool.name),
            description: tool.description ?? '',
            inputSchema: { ...tool.inputSchema },
            ...(tool.title === undefined ? {} : { title: tool.title }),
            ...(tool.outputSchema === undefined ? {} : { outputSchema: { ...tool.outputSchema } }),
            ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
          }));
      } catch (error) {
        onError(serverId, error);
        return [];
      }
    }));
    return listed.flat();
  }

  /**
   * Calls an allowed MCP tool through the broker's connection. A refused name, or one the server does not list
   * (and so the session cannot see), is TOOL_NOT_ALLOWED. The request ends at the call's deadline (TIMEOUT) or when
   * its signal aborts; either way the SDK sends the server `notifications/cancelled` for it.
   */
  async call(name: string, args: Record<string, unknown>, context: CallContext): Promise<ToolResult> {
    return (await this.run(name, args, context)).result;
  }

  /** {@link call}, saying whether this access refused the call itself (a name not allowed, a tool the server does not list). */
  async run(name: string, args: Record<string, unknown>, context: CallContext): Promise<DirectOutcome> {
    const parsed = parseMcpToolName(name);
    if (!this.#hub || !parsed || !isMcpToolAllowed(this.#entries, parsed.serverId, parsed.tool)) {
      return { result: errorResult('TOOL_NOT_ALLOWED', `MCP tool '${name}' is not allowed to this session`), refused: true };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { result: errorResult('INVALID_ARGS', `arguments of ${name} must be an object`) };
    }
    try {
      const offered = await this.#hub.listTools(parsed.serverId, this.#user, context.signal, this.#credentials);
      if (!offered.some((tool) => tool.name === parsed.tool)) {
        return { result: errorResult('TOOL_NOT_ALLOWED', `MCP server '${parsed.serverId}' lists no tool '${parsed.tool}'`), refused: true };
      }
    } catch (error) {
      const plain = toPlainError(error);
      return { result: errorResult(plain.code, plain.message) };
    }
    const timeoutMs = Math.max(1, Math.min(this.#timeoutMs, remainingMs(context)));
    return { result: await this.#hub.callTool(parsed.serverId, parsed.tool, args, this.#user, context.signal, timeoutMs, this.#credentials) };
  }

}

/**
 * Throws INVALID_OPTIONS when MCP entries are given but the runtime has no MCP servers, or when a session without a
 * user asks for a per-user server (it has no credentials to connect with, so its tools could never be listed).
 */
export function assertMcpConfigured(hub: McpHub | undefined, capability: Capability): void {
  if (!hub) {
    if (capability.mcpServers.length > 0) {
      throw new ToolwardenError('INVALID_OPTIONS', `mcpServers ${capability.mcpServers.join(', ')} asked for, but the runtime has no mcpServers configured`);
    }
    return;
  }
  if (capability.user !== undefined) return;
  for (const entry of parseMcpEntries(capability.mcpServers, hub.serverIds)) {
    if (hub.isPerUser(entry.serverId)) {
      throw new ToolwardenError('INVALID_OPTIONS', `MCP server '${entry.serverId}' connects per user: open the session with a user`);
    }
  }
}
