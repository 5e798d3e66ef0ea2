import { toPlainError } from '../src/errors.js';
import type { BrokerApi } from '../src/protocol.js';
import { errorResult, type ToolResult } from '../src/tool-result.js';
import { isBuiltinTool, type BuiltinToolName } from '../src/tools/builtin-schemas.js';
import { editFileTool, globTool, grepTool, listDirTool, readFileTool, writeFileTool, type FileToolContext } from './tools/file-tools.js';
import { applyPatchTool } from './tools/patch-tool.js';

const MCP_PREFIX = 'mcp__';

type Handler = (args: never, ctx: FileToolContext) => Promise<ToolResult>;

const HANDLERS: Record<BuiltinToolName, Handler> = {
  read_file: readFileTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
  apply_patch: applyPatchTool,
  list_dir: listDirTool,
  glob: globTool,
  grep: grepTool,
  bash: (args: Record<string, unknown>, ctx) => ctx.broker.bash(args),
  web_fetch: (args: Record<string, unknown>, ctx) => ctx.broker.webFetch(args),
};

/**
 * Runs one tool call inside the worker. Never throws: every failure becomes an `isError` result with its code.
 * The main thread has already checked that the tool is allowed and validated its arguments against the tool's
 * schema (so the worker need not load a schema library); the broker checks every request again.
 */
export async function dispatchTool(name: string, args: Record<string, unknown>, ctx: FileToolContext): Promise<ToolResult> {
  try {
    if (isBuiltinTool(name)) {
      return await HANDLERS[name](args as never, ctx);
    }
    if (name.startsWith(MCP_PREFIX)) return await ctx.broker.mcpCall(name, args);
    return errorResult('TOOL_NOT_ALLOWED', `unknown tool '${name}'`);
  } catch (error) {
    const plain = toPlainError(error);
    return errorResult(plain.code, plain.message);
  }
}

export type { BrokerApi };
