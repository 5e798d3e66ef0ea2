export { coversMcpEntry, formatMcpEntry, isMcpToolAllowed, matchesMcpEntry, narrowMcpEntries, parseMcpEntries, parseMcpEntry } from './entries.js';
export type { McpEntry } from './entries.js';
export { fillSecretPlaceholders, hasSecretPlaceholder } from './placeholders.js';
export { validateMcpServerConfig, validateMcpServers } from './server-config.js';
export { DEFAULT_MCP_SERVER_LIMITS } from './server-limits.js';
export type { McpServerLimits } from './server-limits.js';
export type { McpHttpServerConfig, McpServerConfig, McpServersOption, McpStdioServerConfig } from './server-config.js';
export { isMcpToolName, isValidServerId, MCP_TOOL_PREFIX, mcpToolName, parseMcpToolName } from './tool-name.js';
