import { z } from 'zod';
import { BUILTIN_TOOLS } from './builtin-registry.js';
import type { BuiltinToolName } from './builtin-schemas.js';
import type { ToolAnnotations } from './tool-presentation.js';

/** A tool as `listTools()` shows it: MCP's Tool shape. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** A human-readable name. */
  title?: string;
  /** JSON Schema of a successful result's `structuredContent`, for tools that always return one. */
  outputSchema?: Record<string, unknown>;
  /** An upstream MCP tool's annotations, as its server gave them (built-in tools get theirs from the MCP server). */
  annotations?: ToolAnnotations;
}

const cache = new Map<BuiltinToolName, ToolInfo>();

/** The listing entry of a built-in tool, with its arguments as JSON Schema (computed once). */
export function describeBuiltinTool(name: BuiltinToolName): ToolInfo {
  let info = cache.get(name);
  if (!info) {
    const { title, description, schema, outputSchema } = BUILTIN_TOOLS[name];
    const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
    info = { name, title, description, inputSchema, outputSchema };
    cache.set(name, info);
  }
  return info;
}
