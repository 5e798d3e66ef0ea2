const SERVER_ID = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
/** The prefix of every MCP tool's name in a session (`mcp__<id>__<tool>`): the one place it is written. */
export const MCP_TOOL_PREFIX = 'mcp__';

/**
 * Whether a string can be an MCP server id: letters, digits, `-` and `_`, not starting or ending with `_`
 * and without `__`, so that `mcp__<id>__<tool>` splits back into exactly one id and tool.
 */
export function isValidServerId(id: string): boolean {
  return SERVER_ID.test(id) && !id.endsWith('_');
}

/**
 * The name an MCP tool gets in a session's tool list.
 * @example mcpToolName('github', 'create_issue') // 'mcp__github__create_issue'
 */
export function mcpToolName(serverId: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${serverId}__${tool}`;
}

/** Splits a name made by {@link mcpToolName}; `undefined` for any other name. */
export function parseMcpToolName(name: string): { serverId: string; tool: string } | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const cut = rest.indexOf('__');
  if (cut <= 0) return undefined;
  const serverId = rest.slice(0, cut);
  const tool = rest.slice(cut + 2);
  if (tool === '' || !isValidServerId(serverId)) return undefined;
  return { serverId, tool };
}

/** Whether a tool name is in the MCP namespace (`mcp__…`), well-formed or not: such a name is never a built-in or host tool's. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}
