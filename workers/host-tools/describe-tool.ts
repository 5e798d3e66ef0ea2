import { z } from 'zod';
import type { DefinedTool } from '../../src/host-tools/define-tool.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';

/** Whether a tool's input is a zod schema rather than a JSON Schema object. */
export function isZodSchema(input: DefinedTool['input']): input is { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } } {
  return typeof (input as { safeParse?: unknown }).safeParse === 'function';
}

/** A host tool's listing entry, with a zod input converted to JSON Schema. */
export function describeHostTool(tool: DefinedTool): ToolInfo {
  let inputSchema: Record<string, unknown>;
  if (isZodSchema(tool.input)) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.input as unknown as z.ZodType) as Record<string, unknown>;
    inputSchema = schema;
  } else {
    inputSchema = { ...tool.input };
  }
  return { name: tool.name, description: tool.description, inputSchema };
}
