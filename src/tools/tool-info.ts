import { z } from 'zod';
import { BUILTIN_DESCRIPTIONS, BUILTIN_SCHEMAS, type BuiltinToolName } from './builtin-schemas.js';

/** A tool as `listTools()` shows it: MCP's Tool shape. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const cache = new Map<BuiltinToolName, ToolInfo>();

/** The listing entry of a built-in tool, with its arguments as JSON Schema (computed once). */
export function describeBuiltinTool(name: BuiltinToolName): ToolInfo {
  let info = cache.get(name);
  if (!info) {
    const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(BUILTIN_SCHEMAS[name]) as Record<string, unknown>;
    info = { name, description: BUILTIN_DESCRIPTIONS[name], inputSchema };
    cache.set(name, info);
  }
  return info;
}
