import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { jsonBytes, overLimit, type ResolvedMcpServerLimits } from '../../src/mcp/server-limits.js';
import type { ToolAnnotations } from '../../src/tools/tool-presentation.js';

/** One tool of an MCP server as the broker lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: object;
  title?: string;
  outputSchema?: object;
  annotations?: ToolAnnotations;
}

const SHOWN_NAME_CHARS = 80;

/**
 * Every page of the server's `tools/list`, within its limits: past `maxPages` pages, `maxTools` tools or a tool
 * definition of `maxSchemaBytes`, it throws MCP_ERROR naming the limit and asks for no further page. Each page request
 * carries `signal`, so a closed session or connection ends the paging at once.
 * @throws ToolwardenError MCP_ERROR past a limit; the SDK's errors (an aborted signal's reason included) otherwise.
 */
export async function listAllTools(client: Client, serverId: string, limits: ResolvedMcpServerLimits, signal: AbortSignal): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages === 0 || cursor !== undefined; pages += 1) {
    if (pages === limits.maxPages) throw overLimit(serverId, 'maxPages', limits.maxPages, `kept paging tools/list after ${pages} pages`);
    signal.throwIfAborted();
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { signal });
    if (tools.length + page.tools.length > limits.maxTools) {
      throw overLimit(serverId, 'maxTools', limits.maxTools, `listed more than ${limits.maxTools} tools`);
    }
    for (const tool of page.tools) {
      const bytes = jsonBytes(tool);
      if (bytes > limits.maxSchemaBytes) {
        throw overLimit(serverId, 'maxSchemaBytes', limits.maxSchemaBytes, `tool '${tool.name.slice(0, SHOWN_NAME_CHARS)}' has a definition of ${bytes} bytes`);
      }
      tools.push(toToolInfo(tool));
    }
    cursor = page.nextCursor;
  }
  return tools;
}

function toToolInfo(tool: Tool): McpToolInfo {
  const info: McpToolInfo = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.description !== undefined) info.description = tool.description;
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) info.title = title;
  if (tool.outputSchema !== undefined) info.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) info.annotations = stripUndefined(tool.annotations);
  return info;
}

/** Annotations without the keys the SDK's parse left `undefined` (exactOptionalPropertyTypes). */
function stripUndefined(annotations: Record<string, unknown>): ToolAnnotations {
  return Object.fromEntries(Object.entries(annotations).filter(([, value]) => value !== undefined)) as ToolAnnotations;
}
