import { isDefinedTool, type DefinedTool } from '../../src/host-tools/define-tool.js';
import { ToolwardenError } from '../../src/errors.js';
import { isBuiltinTool } from '../../src/tools/builtin-schemas.js';

/**
 * Imports host tool modules and collects every tool they export (named exports, or a default export that is a
 * tool or an array of tools). A module that fails to load, exports no tool, shadows a built-in tool or repeats a
 * name fails with its URL.
 */
export async function loadHostTools(moduleUrls: readonly string[]): Promise<Map<string, DefinedTool>> {
  const tools = new Map<string, { tool: DefinedTool; from: string }>();
  for (const url of moduleUrls) {
    let exported: Record<string, unknown>;
    try {
      exported = (await import(url)) as Record<string, unknown>;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolwardenError('INVALID_OPTIONS', `tool module ${url} failed to load: ${reason}`);
    }
    const found = Object.values(exported).flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isDefinedTool);
    if (found.length === 0) throw new ToolwardenError('INVALID_OPTIONS', `tool module ${url} exports no tool made with defineTool`);
    for (const tool of new Set(found)) {
      if (isBuiltinTool(tool.name)) {
        throw new ToolwardenError('INVALID_OPTIONS', `tool module ${url} defines '${tool.name}', which would shadow the built-in tool of that name`);
      }
      const previous = tools.get(tool.name);
      if (previous && previous.tool !== tool) {
        throw new ToolwardenError('INVALID_OPTIONS', `tool '${tool.name}' is defined twice: in ${previous.from} and ${url}`);
      }
      tools.set(tool.name, { tool, from: url });
    }
  }
  return new Map([...tools].map(([name, { tool }]) => [name, tool]));
}
