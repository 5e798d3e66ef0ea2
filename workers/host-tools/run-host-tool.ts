import { ToolwardenError } from '../../src/errors.js';
import type { DefinedTool, ToolContext } from '../../src/host-tools/define-tool.js';
import { errorResult, okResult, type ToolResult } from '../../src/tool-result.js';
import { validateHostToolArgs } from './validate-input.js';

/** Time before the hard deadline at which ctx.signal aborts, so a cooperative tool can stop and keep its worker. */
export function abortLeadMs(deadlineMs: number): number {
  return Math.min(250, Math.floor(deadlineMs / 10));
}

/**
 * Runs a host tool: validates its arguments, gives it the call's brokered ctx (made by `context` around a signal that
 * aborts shortly before the call's deadline; the runtime stops the worker at the deadline itself), and turns its
 * return value (string, JSON value or ToolResult) into a ToolResult. A thrown error is TOOL_FAILED, or TIMEOUT when
 * the tool gave up on the aborted signal.
 */
export async function runHostTool(tool: DefinedTool, args: unknown, context: (signal: () => AbortSignal) => ToolContext, deadlineMs: number): Promise<ToolResult> {
  let parsed: unknown;
  try {
    parsed = validateHostToolArgs(tool, args ?? {});
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorResult('INVALID_ARGS', message);
  }
  // The signal, and the timer behind it, exist only if the tool reads ctx.signal: most tools never do.
  let controller: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const signal = (): AbortSignal => {
    if (!controller) {
      const created = new AbortController();
      timer = setTimeout(() => created.abort(new ToolwardenError('TIMEOUT', `${tool.name} is about to pass toolTimeoutMs=${deadlineMs}`)), deadlineMs - abortLeadMs(deadlineMs));
      controller = created;
    }
    return controller.signal;
  };
  try {
    const value = await tool.run(parsed as Record<string, unknown>, context(signal));
    return toToolResult(value);
  } catch (error) {
    const code = error instanceof ToolwardenError ? ` [${error.code}]` : '';
    const message = error instanceof Error ? error.message : String(error);
    if (controller?.signal.aborted === true) return errorResult('TIMEOUT', `${tool.name} stopped at its deadline (toolTimeoutMs=${deadlineMs}): ${message}`);
    return errorResult('TOOL_FAILED', `${tool.name} threw${code}: ${message}`);
  } finally {
    if (timer) clearTimeout(timer);
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
