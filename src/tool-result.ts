import type { ErrorCode } from './errors.js';

/** Who a content block is for and how much it matters, as in MCP. */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/** One text block of a result, as in MCP's CallToolResult. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: ContentAnnotations;
}

/** An image block (base64 data), as an upstream MCP tool returned it. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
}

/** An audio block (base64 data), as an upstream MCP tool returned it. */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
}

/** A link to a resource, as an upstream MCP tool returned it. */
export interface ResourceLinkContent {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
}

/** A resource embedded in a result (text or base64 blob), as an upstream MCP tool returned it. */
export interface EmbeddedResourceContent {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
  annotations?: ContentAnnotations;
}

/** An MCP content block of any kind. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent;

/**
 * The result of a tool call: MCP's CallToolResult plus a stable `code` on failure.
 * Tool failures resolve with `isError: true`; they are never thrown.
 */
export interface ToolResult {
  content: TextContent[];
  /**
   * An upstream MCP tool's own content blocks, kept when any is not plain text (an image, audio, a resource or a link)
   * or carries annotations; `content` then has a text line describing each. `toolwarden serve` sends these.
   */
  mcpContent?: ContentBlock[];
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
