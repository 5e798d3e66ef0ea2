export { McpHub } from './mcp-hub.js';
export type { McpHubOptions, ToolsChangedListener } from './mcp-hub.js';
export type { McpToolInfo } from './tool-listing.js';
