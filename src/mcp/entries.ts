import { ToolwardenError } from '../errors.js';
import { isValidServerId } from './tool-name.js';

/**
 * One parsed MCP allowlist entry. `'gh'` is `{ serverId: 'gh', tool: '', prefix: true }` (every tool),
 * `'gh:create_issue'` is an exact tool, `'gh:list_*'` is `{ tool: 'list_', prefix: true }`.
 */
export interface McpEntry {
  readonly serverId: string;
  /** The tool name, or the prefix a tool name must start with when `prefix` is true. */
  readonly tool: string;
  readonly prefix: boolean;
}

/** The entry written back in its string form (`gh`, `gh:create_issue`, `gh:list_*`). */
export function formatMcpEntry(entry: McpEntry): string {
  if (entry.prefix && entry.tool === '') return entry.serverId;
  return `${entry.serverId}:${entry.tool}${entry.prefix ? '*' : ''}`;
}

/** Parses one entry string's syntax; the server id is not checked against any configuration here. */
export function parseMcpEntry(text: unknown): McpEntry {
  if (typeof text !== 'string') {
    throw new ToolwardenError('INVALID_OPTIONS', `mcpServers entry ${String(text)} must be a string like 'github', 'github:create_issue' or 'github:list_*'`);
  }
  const colon = text.indexOf(':');
  const serverId = colon === -1 ? text : text.slice(0, colon);
  if (!isValidServerId(serverId)) {
    throw new ToolwardenError('INVALID_OPTIONS', `mcpServers entry '${text}': server id '${serverId}' must match [A-Za-z0-9_-]+ without '__' or a leading or trailing '_'`);
  }
  if (colon === -1) return { serverId, tool: '', prefix: true };
  const pattern = text.slice(colon + 1);
  const star = pattern.indexOf('*');
  if (pattern === '' || /\s/.test(pattern) || (star !== -1 && star !== pattern.length - 1)) {
    throw new ToolwardenError('INVALID_OPTIONS', `mcpServers entry '${text}': the tool part must be a non-empty name without spaces, with '*' allowed only at the end`);
  }
  return star === -1 ? { serverId, tool: pattern, prefix: false } : { serverId, tool: pattern.slice(0, -1), prefix: true };
}

/**
 * Parses a session's MCP entries and checks every server id is configured.
 * @throws ToolwardenError INVALID_OPTIONS for a non-array, a malformed entry or an unknown server id.
 */
export function parseMcpEntries(entries: unknown, configured: readonly string[]): McpEntry[] {
  if (!Array.isArray(entries)) {
    throw new ToolwardenError('INVALID_OPTIONS', `mcpServers must be an array of entries like 'github' or 'github:list_*', got ${typeof entries}`);
  }
  return entries.map((text: unknown) => {
    const entry = parseMcpEntry(text);
    if (!configured.includes(entry.serverId)) {
      const known = configured.length === 0 ? 'none are configured' : `configured: ${configured.join(', ')}`;
      throw new ToolwardenError('INVALID_OPTIONS', `mcpServers entry '${String(text)}' names unknown MCP server '${entry.serverId}' (${known})`);
    }
    return entry;
  });
}

/** Whether an entry matches one tool of one server. */
export function matchesMcpEntry(entry: McpEntry, serverId: string, tool: string): boolean {
  if (entry.serverId !== serverId) return false;
  return entry.prefix ? tool.startsWith(entry.tool) : tool === entry.tool;
}

/** Whether any entry allows the tool; no entries allow nothing (closed by default). */
export function isMcpToolAllowed(entries: readonly McpEntry[], serverId: string, tool: string): boolean {
  return entries.some((entry) => matchesMcpEntry(entry, serverId, tool));
}

/**
 * Whether `parent` allows every tool `child` could match. A prefix child is covered only by a parent
 * prefix that is a prefix of it: no finite set of exact names covers the infinitely many names it matches.
 */
export function coversMcpEntry(parent: McpEntry, child: McpEntry): boolean {
  if (parent.serverId !== child.serverId) return false;
  if (parent.prefix) return child.tool.startsWith(parent.tool);
  return !child.prefix && child.tool === parent.tool;
}

/**
 * Parses `requested` entries and checks each is covered by one of `parent`'s, so a child can only narrow.
 * `parentName` names the parent in the error (a session, a user's tenant).
 * @throws ToolwardenError INVALID_OPTIONS for a malformed entry, ESCALATION for one the parent does not cover.
 */
export function narrowMcpEntries(parent: readonly McpEntry[], requested: readonly string[], parentName = 'the parent'): McpEntry[] {
  return requested.map((text) => {
    const entry = parseMcpEntry(text);
    if (!parent.some((allowed) => coversMcpEntry(allowed, entry))) {
      const allowed = parent.length === 0 ? 'no MCP entries' : parent.map(formatMcpEntry).join(', ');
      throw new ToolwardenError('ESCALATION', `MCP entry '${text}' asks for more than ${parentName} allows (${allowed})`);
    }
    return entry;
  });
}
