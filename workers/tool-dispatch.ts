import { toPlainError } from '../src/errors.js';
import { errorResult, type ToolResult } from '../src/tool-result.js';
import type { WorkerToolName } from '../src/tools/builtin-schemas.js';
import { editFileTool, readFileTool, writeFileTool, type FileToolContext } from '../src/tools/file-tools.js';
import { applyPatchTool } from './tools/patch-tool.js';

type Handler = (args: never, ctx: FileToolContext) => Promise<ToolResult>;

// One handler per built-in tool the registry says runs in the worker (`runsIn`); the others and MCP tools run on the
// main thread (their code is the broker's), so they never reach a worker.
const HANDLERS: Record<WorkerToolName, Handler> = {
  read_file: readFileTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
  apply_patch: applyPatchTool,
};

/**
 * Runs one tool call inside the worker. Never throws: every failure becomes an `isError` result with its code.
 * The main thread has already checked that the tool is allowed and validated its arguments against the tool's
 * schema (so the worker need not load a schema library); the broker checks every request again.
 */
export async function dispatchTool(name: string, args: Record<string, unknown>, ctx: FileToolContext): Promise<ToolResult> {
  try {
    // Object.hasOwn, not the schema module's isBuiltinTool: the worker must not load zod just to look up a name.
    const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name as keyof typeof HANDLERS] : undefined;
    if (handler) return await handler(args as never, ctx);
    return errorResult('TOOL_NOT_ALLOWED', `tool '${name}' does not run in a session worker`);
  } catch (error) {
    const plain = toPlainError(error);
    return errorResult(plain.code, plain.message);
  }
}
