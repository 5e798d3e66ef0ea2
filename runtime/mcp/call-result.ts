import { ErrorCode as SdkErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolwardenError } from '../../src/errors.js';
import type { ContentBlock, TextContent, ToolResult } from '../../src/tool-result.js';

/**
 * Converts an MCP CallToolResult into a ToolResult. Text passes through; other blocks (images, audio,
 * resources) become a short text line in `content`, and the original blocks are kept in `mcpContent` for clients
 * that can show them. A tool-level `isError` is kept as is, without a `code`: the server's tool failed, not the
 * connection.
 */
export function toToolResult(result: CallToolResult): ToolResult {
  const content: TextContent[] = result.content.map((block) => ({ type: 'text', text: describeBlock(block) }));
  const converted: ToolResult = { content };
  if (result.content.some((block) => block.type !== 'text' || block.annotations !== undefined)) converted.mcpContent = result.content as ContentBlock[];
  if (result.structuredContent !== undefined) converted.structuredContent = result.structuredContent;
  if (result.isError === true) converted.isError = true;
  return converted;
}

/** Whether a failed request means the connection itself is unusable and must be replaced. */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof McpError) return error.code === SdkErrorCode.ConnectionClosed;
  return !(error instanceof ToolwardenError);
}

/** The code a failed MCP request maps to: TIMEOUT for the SDK's request timeout, MCP_ERROR otherwise. */
export function toCallError(serverId: string, tool: string, error: unknown, stderr: string): ToolwardenError {
  if (error instanceof ToolwardenError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError && error.code === SdkErrorCode.RequestTimeout) {
    return new ToolwardenError('TIMEOUT', `MCP tool '${tool}' of server '${serverId}' did not answer in time: ${message}`);
  }
  const tail = stderr === '' ? '' : `; last stderr lines:\n${stderr}`;
  return new ToolwardenError('MCP_ERROR', `MCP server '${serverId}' failed on tool '${tool}': ${message}${tail}`);
}

function describeBlock(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${block.data.length} base64 characters, not shown]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[binary resource ${block.resource.uri}, not shown]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.description ? `: ${block.description}` : ''}]`;
  }
}
