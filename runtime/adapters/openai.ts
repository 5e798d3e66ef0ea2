import type { ToolResult } from '../../src/tool-result.js';
import type { Session } from '../session/session.js';
import { callTool, parseArguments, resultText } from './call-tool.js';
import { dropStrictNulls, toStrictSchema } from './openai-strict.js';

export { dropStrictNulls, toStrictSchema } from './openai-strict.js';

/** Options of {@link openAITools}. */
export interface OpenAIToolsOptions {
  /** Which API the definitions are for: Chat Completions (`tools` of `chat.completions.create`) or Responses. */
  api: 'chat' | 'responses';
  /**
   * Rewrite schemas for strict mode (every property required, optional ones nullable, `additionalProperties: false`,
   * unsupported keywords dropped) and send `strict: true`. A tool whose schema strict mode cannot express (a free-form
   * map such as `web_fetch`'s `headers`) is sent with `strict: false`. @default false
   */
  strict?: boolean;
}

/** A Chat Completions function tool. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
}

/** A Responses API function tool. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** A tool call of a Chat Completions assistant message (`message.tool_calls[i]`). */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A `function_call` output item of a Responses API response. */
export interface OpenAIFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** The Chat Completions message to append after a tool call. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** The Responses API input item to send after a function call. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** Original schemas of the tools sent in strict form, by session, so their arguments' nulls can be mapped back. */
const strictOriginals = new WeakMap<Session, Map<string, Record<string, unknown>>>();

/**
 * The session's tools as OpenAI function tools, for Chat Completions or Responses.
 * @example await openai.chat.completions.create({ model, messages, tools: await openAITools(session, { api: 'chat', strict: true }) })
 */
export function openAITools(session: Session, options: { api: 'chat'; strict?: boolean }): Promise<OpenAIChatTool[]>;
export function openAITools(session: Session, options: { api: 'responses'; strict?: boolean }): Promise<OpenAIResponsesTool[]>;
export async function openAITools(session: Session, options: OpenAIToolsOptions): Promise<(OpenAIChatTool | OpenAIResponsesTool)[]> {
  const originals = strictOriginals.get(session) ?? new Map<string, Record<string, unknown>>();
  strictOriginals.set(session, originals);
  return (await session.listTools()).map((info) => {
    const strictSchema = options.strict === true ? toStrictSchema(info.inputSchema) : undefined;
    if (strictSchema === undefined) originals.delete(info.name);
    else originals.set(info.name, info.inputSchema);
    const parameters = strictSchema ?? info.inputSchema;
    const strict = strictSchema !== undefined;
    return options.api === 'chat'
      ? { type: 'function', function: { name: info.name, description: info.description, parameters, strict } }
      : { type: 'function', name: info.name, description: info.description, parameters, strict };
  });
}

/**
 * Runs one tool call of the model and gives what to append: a `role: 'tool'` message for a Chat Completions call,
 * a `function_call_output` item for a Responses `function_call`. Arguments that are not a JSON object, a refusal and
 * a failure come back as text starting with the code, never as a throw. For a tool sent in strict form, the nulls the
 * model sent for absent optional properties are removed first.
 * @example messages.push(...(await Promise.all(message.tool_calls.map((call) => runOpenAIToolCall(session, call)))));
 */
export function runOpenAIToolCall(session: Session, call: OpenAIChatToolCall, options?: { signal?: AbortSignal }): Promise<OpenAIToolMessage>;
export function runOpenAIToolCall(session: Session, call: OpenAIFunctionCall, options?: { signal?: AbortSignal }): Promise<OpenAIFunctionCallOutput>;
export async function runOpenAIToolCall(
  session: Session,
  call: OpenAIChatToolCall | OpenAIFunctionCall,
  options: { signal?: AbortSignal } = {},
): Promise<OpenAIToolMessage | OpenAIFunctionCallOutput> {
  const { name, json } = 'function' in call ? { name: call.function.name, json: call.function.arguments } : { name: call.name, json: call.arguments };
  const text = resultText(await run(session, name, json, options.signal));
  return 'function' in call ? { role: 'tool', tool_call_id: call.id, content: text } : { type: 'function_call_output', call_id: call.call_id, output: text };
}

async function run(session: Session, name: string, json: string, signal: AbortSignal | undefined): Promise<ToolResult> {
  const parsed = parseArguments(name, json);
  if (!parsed.ok) return parsed.result;
  const original = strictOriginals.get(session)?.get(name);
  const args = original === undefined ? parsed.args : (dropStrictNulls(parsed.args, original) as Record<string, unknown>);
  return callTool(session, name, args, signal);
}
