import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, McpError, type CallToolRequest, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Capability } from '../../src/capability/capability.js';
import { PACKAGE_INFO } from '../../src/package-info.js';
import type { ToolResult } from '../../src/tool-result.js';
import { isBuiltinTool } from '../../src/tools/builtin-schemas.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import { builtinAnnotations } from '../../src/tools/tool-presentation.js';
import { callTool } from '../adapters/call-tool.js';
import type { Session } from '../session/session.js';
import { startProgress } from './call-progress.js';

/** Name and version the served MCP server reports in its `initialize` answer: package.json's. */
export const SERVER_INFO = { name: PACKAGE_INFO.name, version: PACKAGE_INFO.version } as const;

/**
 * `tools/call` with any params: the SDK's own wrapper then checks them against `CallToolRequestSchema` and answers
 * -32602 for malformed ones (the strict schema here would make the parse failure a -32603).
 */
const LooseCallToolRequestSchema = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/**
 * An MCP server (the SDK's low-level `Server`, so schemas pass through unchanged) exposing one session, for a host
 * to connect to any transport. `tools/list` answers `session.listTools()` with titles, annotations and output
 * schemas; `tools/call` forwards to `session.call()` with the request's signal. A refusal is a tool result with
 * `isError` and its code in the text and in `structuredContent.code`; an unknown tool or malformed params are
 * JSON-RPC errors (-32602). The server does not close the session.
 * @example await createMcpServer(session).connect(new StdioServerTransport())
 */
export function createMcpServer(session: Session): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: true } } });
  installSessionTools(server, session);
  return server;
}

/**
 * Installs a session's `tools/list` and `tools/call` handlers on an SDK server (one the host made itself, or an
 * `McpServer`'s `.server`), and passes the session's tool-list changes on as `notifications/tools/list_changed`.
 */
export function installSessionTools(server: Server, session: Session): void {
  server.registerCapabilities({ tools: { listChanged: true } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await session.listTools()).map((info) => toMcpTool(info, session.capability)),
  }));
  server.setRequestHandler(LooseCallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    // Checked by the SDK's wrapper before this runs.
    const { name, arguments: args = {}, _meta } = request.params as CallToolRequest['params'];
    const progress = _meta?.progressToken === undefined ? undefined : startProgress(name, args, _meta.progressToken, extra.sendNotification);
    let result: ToolResult;
    try {
      result = await callTool(session, name, args, extra.signal);
    } finally {
      progress?.stop();
    }
    // Refused by the session first, so the refusal is audited; a tool the client cannot see is unknown to it.
    if (result.code === 'TOOL_NOT_ALLOWED' && !(await session.listTools()).some((tool) => tool.name === name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    return toCallToolResult(result);
  });
  // An upstream MCP server's tools/list_changed reaches the client as this server's own; the subscription ends
  // with the session.
  session.onToolsChanged(() => void server.sendToolListChanged().catch(() => undefined));
}

/** A listing entry in MCP's form: built-in tools get annotations from their nature and the capability. */
export function toMcpTool(info: ToolInfo, capability: Capability): Tool {
  const tool: Tool = { name: info.name, description: info.description, inputSchema: info.inputSchema as Tool['inputSchema'] };
  if (info.title !== undefined) tool.title = info.title;
  if (info.outputSchema !== undefined) tool.outputSchema = info.outputSchema as Tool['outputSchema'];
  const annotations = isBuiltinTool(info.name) ? builtinAnnotations(info.name, capability.net) : info.annotations;
  if (annotations !== undefined) tool.annotations = annotations;
  return tool;
}

/**
 * The MCP form of a tool result: an upstream MCP tool's own blocks when it returned more than text. A failure's code
 * also goes into `structuredContent` for programmatic clients. Structured content is also given as a JSON text block,
 * as the specification advises, so a host that reads only `content` gets the same facts; the block leaves out a string
 * field a text block already holds verbatim (read_file's `text`), so such a host does not get the file twice, and is
 * not added when a text block already holds that JSON or nothing is left.
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const { code, mcpContent, ...rest } = result;
  const structuredContent = result.isError === true && code !== undefined ? { ...result.structuredContent, code } : result.structuredContent;
  const converted: CallToolResult = { ...rest, content: [...(mcpContent ?? result.content)] };
  if (structuredContent === undefined) return converted;
  converted.structuredContent = structuredContent;
  const unshown = withoutShownText(structuredContent, result.content);
  if (unshown === undefined) return converted;
  const json = JSON.stringify(unshown);
  if (!result.content.some((block) => block.type === 'text' && sameJson(block.text, json))) converted.content.push({ type: 'text', text: json });
  return converted;
}

/** The fields of `structured` less the non-empty strings some text block is equal to; `undefined` when that removed all. */
function withoutShownText(structured: Record<string, unknown>, content: ToolResult['content']): Record<string, unknown> | undefined {
  const shown = (value: unknown) => typeof value === 'string' && value !== '' && content.some((block) => block.text === value);
  const keys = Object.keys(structured);
  if (!keys.some((key) => shown(structured[key]))) return structured;
  const unshown = Object.fromEntries(keys.flatMap((key) => (shown(structured[key]) ? [] : [[key, structured[key]]])));
  return Object.keys(unshown).length === 0 ? undefined : unshown;
}

// Structured content is an object, so only a text that opens like one is parsed (a file's text usually does not, and a
// throwing JSON.parse on every read result was a measured share of serve's time).
function sameJson(text: string, json: string): boolean {
  if (text === json) return true;
  if (!text.trimStart().startsWith('{')) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}
