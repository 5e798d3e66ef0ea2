import { ToolwardenError } from '../../src/errors.js';
import type { DefinedTool, ToolContext } from '../../src/host-tools/define-tool.js';
import { errorResult, okResult, type ToolResult } from '../../src/tool-result.js';
import { validateHostToolArgs } from './validate-input.js';
import type { CallControl } from '../../src/protocol/tool-host.js';

/**
 * Runs a host tool: validates its arguments, gives it the call's brokered ctx (made by `context` around the call's
 * signal: it aborts when the main thread cancels the call, or shortly before the call's deadline; the runtime stops
 * the worker at the deadline itself), and turns its return value (string, JSON value or ToolResult) into a
 * ToolResult. A thrown error is TOOL_FAILED, or the signal's code (TIMEOUT, ABORTED) when the tool gave up on it.
 */
export async function runHostTool(tool: DefinedTool, args: unknown, control: CallControl, context: (signal: () => AbortSignal) => ToolContext): Promise<ToolResult> {
  let parsed: unknown;
  try {
    parsed = validateHostToolArgs(tool, args ?? {});
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorResult('INVALID_ARGS', message);
  }
  try {
    const value = await tool.run(parsed as Record<string, unknown>, context(() => control.signal));
    return toToolResult(value);
  } catch (error) {
    const code = error instanceof ToolwardenError ? ` [${error.code}]` : '';
    const message = error instanceof Error ? error.message : String(error);
    const reason = control.abortReason;
    if (reason instanceof ToolwardenError) return errorResult(reason.code, `${tool.name} stopped: ${reason.message}: ${message}`);
    return errorResult('TOOL_FAILED', `${tool.name} threw${code}: ${message}`);
  }
}

/** Normalizes what a host tool returned. */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === 'string') return okResult(value);
  if (value === undefined) return okResult('');
  if (isToolResult(value)) return value;
  const text = JSON.stringify(value, null, 2) ?? String(value);
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
  return okResult(text, structured);
}

function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every((c) => typeof c === 'object' && c !== null && typeof (c as { type?: unknown }).type === 'string');
}
