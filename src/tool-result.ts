import type { ErrorCode } from './errors.js';

/** One text block of a result, as in MCP's CallToolResult. */
export interface TextContent {
  type: 'text';
  text: string;
}

/**
 * The result of a tool call: MCP's CallToolResult plus a stable `code` on failure.
 * Tool failures resolve with `isError: true`; they are never thrown.
 */
export interface ToolResult {
  content: TextContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  code?: ErrorCode;
}

/** A successful result with text and optional structured content. */
export function okResult(text: string, structuredContent?: Record<string, unknown>): ToolResult {
  return structuredContent ? { content: [{ type: 'text', text }], structuredContent } : { content: [{ type: 'text', text }] };
}

/** A failed result carrying its code; the text starts with the code so a model sees it too. */
export function errorResult(code: ErrorCode, message: string, structuredContent?: Record<string, unknown>): ToolResult {
  const result: ToolResult = { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true, code };
  if (structuredContent) result.structuredContent = structuredContent;
  return result;
}
