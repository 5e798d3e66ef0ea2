import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { Session } from '../session.js';

/** Name and version the served MCP server reports in its `initialize` answer. */
export const SERVER_INFO = { name: 'toolwarden', version: '0.1.0' } as const;

/**
 * An MCP server (the SDK's low-level `Server`, so input schemas pass through unchanged) exposing one session:
 * `tools/list` answers `session.listTools()`, `tools/call` forwards to `session.call()`, MCP cancellation included. A refusal is a tool
 * result with `isError` and its code in the text and in `structuredContent.code`, never a protocol error.
 * @example await createSessionMcpServer(session).connect(new StdioServerTransport())
 */
export function createSessionMcpServer(session: Session): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await session.listTools()) as Tool[] }));
  // The SDK aborts extra.signal when the client sends notifications/cancelled for this request (or the connection
  // closes): the call then ends with ABORTED and its work is stopped.
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    toCallToolResult(await session.call(request.params.name, request.params.arguments ?? {}, { signal: extra.signal })));
  // An upstream MCP server's tools/list_changed reaches the client as this server's own; the subscription ends
  // with the session.
  session.onToolsChanged(() => void server.sendToolListChanged().catch(() => undefined));
  return server;
}

/** The MCP form of a tool result; a failure's code also goes into `structuredContent` for programmatic clients. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  if (!result.isError || result.code === undefined) return { ...result };
  return { ...result, structuredContent: { ...result.structuredContent, code: result.code } };
}
