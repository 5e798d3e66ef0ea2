import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SERVER_INFO, installSessionTools } from '../serve/session-mcp-server.js';
import type { Session } from '../session/session.js';

/**
 * An in-process MCP server config for the Claude Agent SDK's `mcpServers` option: the shape of its
 * `McpSdkServerConfigWithInstance`, written out here because it is plain data over the MCP SDK's `McpServer`, so
 * neither these types nor the adapter need `@anthropic-ai/claude-agent-sdk` installed.
 */
export interface ClaudeAgentMcpServerConfig {
  type: 'sdk';
  name: string;
  instance: McpServer;
}

/**
 * The session as an in-process MCP server for the Claude Agent SDK (what its `createSdkMcpServer` returns), for
 * `query({ options: { mcpServers: { [name]: server } } })`. The tools keep their JSON Schemas, titles and
 * annotations, which the SDK's zod-based `tool()` could not carry; calls and refusals behave as over `toolwarden serve`.
 * The model sees the tools as `mcp__<name>__<tool>`.
 * @example const server = claudeAgentMcpServer(session); query({ prompt, options: { mcpServers: { toolwarden: server } } });
 */
export function claudeAgentMcpServer(session: Session, options: { name?: string } = {}): ClaudeAgentMcpServerConfig {
  const name = options.name ?? 'toolwarden';
  const instance = new McpServer({ name, version: SERVER_INFO.version });
  installSessionTools(instance.server, session);
  return { type: 'sdk', name, instance };
}
