/**
 * The light entry host tool modules get inside a session worker: `import { defineTool } from 'toolwarden'` resolves
 * here in the worker, so a tool module never drags the runtime (and its fs and process code) into the worker.
 */
export { defineTool, isDefinedTool } from './host-tools/define-tool.js';
export type { DefinedTool, ToolContext, ToolFs, ExecOptions, ExecResult, ToolInputSchema, ToolReturn, ToolSessionInfo } from './host-tools/define-tool.js';
export { ToolwardenError, ERROR_CODES, type ErrorCode } from './errors.js';
export type { ToolResult } from './tool-result.js';
