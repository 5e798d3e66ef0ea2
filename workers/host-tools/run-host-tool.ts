import { ToolwardenError } from '../../src/errors.js';
import type { DefinedTool, ToolSessionInfo } from '../../src/host-tools/define-tool.js';
import type { BrokerApi } from '../../src/protocol.js';
import { errorResult, okResult, type ToolResult } from '../../src/tool-result.js';
import { createToolContext } from './tool-context.js';
import { validateHostToolArgs } from './validate-input.js';

/**
 * Runs a host tool: validates its arguments, gives it a brokered ctx whose signal aborts at the deadline, and turns
 * its return value (string, JSON value or ToolResult) or its thrown error (TOOL_FAILED) into a ToolResult.
 */
export async function runHostTool(tool: DefinedTool, args: unknown, broker: BrokerApi, session: ToolSessionInfo, deadlineMs: number, closing: AbortSignal): Promise<ToolResult> {
  let parsed: unknown;
  try {
    parsed = validateHostToolArgs(tool, args ?? {});
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorResult('INVALID_ARGS', message);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ToolwardenError('TIMEOUT', `${tool.name} passed its deadline`)), deadlineMs);
  const onClose = (): void => controller.abort(new ToolwardenError('SESSION_CLOSED', 'the session closed'));
  closing.addEventListener('abort', onClose, { once: true });
  try {
    const value = await tool.run(parsed as Record<string, unknown>, createToolContext(broker, session, controller.signal));
    return toToolResult(value);
  } catch (error) {
    const code = error instanceof ToolwardenError ? ` [${error.code}]` : '';
    const message = error instanceof Error ? error.message : String(error);
    return errorResult('TOOL_FAILED', `${tool.name} threw${code}: ${message}`);
  } finally {
    clearTimeout(timer);
    closing.removeEventListener('abort', onClose);
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
