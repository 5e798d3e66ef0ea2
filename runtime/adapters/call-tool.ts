import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { Session } from '../session/session.js';

/** `session.call` with the options argument the call-path work adds; a session without it ignores the extra argument. */
type CallWithOptions = (name: string, args: Record<string, unknown>, options: { signal?: AbortSignal }) => Promise<ToolResult>;

/**
 * The one place adapters and the MCP server call a tool. A signal that has already fired gives an `ABORTED` result
 * without calling; otherwise the signal goes to `session.call`, which stops the call when it fires (once the session
 * takes a signal).
 */
export function callTool(session: Session, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
  if (signal?.aborted === true) return Promise.resolve(errorResult('ABORTED', `the call of '${name}' was cancelled before it started`));
  const call: CallWithOptions = session.call.bind(session);
  return call(name, args, signal === undefined ? {} : { signal });
}

/** A result as one string for frameworks that take text: its text blocks, or its structured content as JSON. */
export function resultText(result: ToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
  if (text !== '' || result.structuredContent === undefined) return text;
  return JSON.stringify(result.structuredContent);
}

/** Parses a model's JSON arguments string into an object, or gives the INVALID_ARGS result to send back instead. */
export function parseArguments(name: string, json: string): { ok: true; args: Record<string, unknown> } | { ok: false; result: ToolResult } {
  let value: unknown;
  try {
    value = json.trim() === '' ? {} : JSON.parse(json);
  } catch (error) {
    return { ok: false, result: errorResult('INVALID_ARGS', `the arguments of '${name}' are not JSON: ${(error as Error).message}`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, result: errorResult('INVALID_ARGS', `the arguments of '${name}' must be a JSON object`) };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
