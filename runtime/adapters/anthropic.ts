import { errorResult } from '../../src/tool-result.js';
import type { Session } from '../session/session.js';
import { callTool, resultText } from './call-tool.js';

/** A tool definition as the Anthropic Messages API takes it in `tools`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** The `tool_result` block to send back in the next user message. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: { type: 'text'; text: string }[];
  is_error?: true;
}

/**
 * The session's tools as Anthropic Messages API tool definitions.
 * @example await client.messages.create({ model, max_tokens, messages, tools: await anthropicTools(session) })
 */
export async function anthropicTools(session: Session): Promise<AnthropicTool[]> {
  return (await session.listTools()).map((info) => ({ name: info.name, description: info.description, input_schema: info.inputSchema }));
}

/**
 * Runs one `tool_use` block and gives the `tool_result` block for it; a refusal or failure has `is_error: true` and
 * the code in its text. Never throws for a tool failure.
 * @example const results = await Promise.all(message.content.filter((b) => b.type === 'tool_use').map((b) => runAnthropicToolUse(session, b)));
 */
export async function runAnthropicToolUse(session: Session, block: AnthropicToolUseBlock, options: { signal?: AbortSignal } = {}): Promise<AnthropicToolResultBlock> {
  const input = block.input ?? {};
  const result =
    typeof input === 'object' && !Array.isArray(input)
      ? await callTool(session, block.name, input as Record<string, unknown>, options.signal)
      : errorResult('INVALID_ARGS', `the input of '${block.name}' must be an object`);
  const reply: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: block.id, content: [{ type: 'text', text: resultText(result) }] };
  if (result.isError === true) reply.is_error = true;
  return reply;
}
