const SERVER_ID = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
const PREFIX = 'mcp__';

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
  return `${PREFIX}${serverId}__${tool}`;
}

/** Splits a name made by {@link mcpToolName}; `undefined` for any other name. */
export function parseMcpToolName(name: string): { serverId: string; tool: string } | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  const rest = name.slice(PREFIX.length);
  const cut = rest.indexOf('__');
  if (cut <= 0) return undefined;
  const serverId = rest.slice(0, cut);
  const tool = rest.slice(cut + 2);
  if (tool === '' || !isValidServerId(serverId)) return undefined;
  return { serverId, tool };
}
