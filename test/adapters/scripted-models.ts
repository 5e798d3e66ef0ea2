import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A tool call of an AI SDK model's first step. */
export const aiSdkCall = (id: string, toolName: string, input: unknown) => ({ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) });

/** An AI SDK model that asks for `calls` in its first step and then answers with text, recording each prompt. */
export function scriptedAiSdkModel(calls: ReturnType<typeof aiSdkCall>[], prompts: LanguageModelV3CallOptions['prompt'][]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      prompts.push(options.prompt);
      if (prompts.length === 1) return { content: calls, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

/** The tool results of a recorded AI SDK prompt, by call id. */
export function aiSdkOutputsOf(prompt: LanguageModelV3CallOptions['prompt'] | undefined): Record<string, unknown> {
  const toolMessage = prompt?.find((message) => message.role === 'tool');
  return Object.fromEntries((toolMessage?.content ?? []).flatMap((part) => (part.type === 'tool-result' ? [[part.toolCallId, part.output]] : [])));
}

/** A function call of an OpenAI Agents SDK model's first response. */
export const agentsCall = (callId: string, name: string, args: unknown) => ({ type: 'function_call' as const, callId, name, arguments: JSON.stringify(args), status: 'completed' as const });

/** An OpenAI Agents SDK model that asks for `calls` first, then answers with text; it keeps the input of each request. */
export class ScriptedAgentsModel implements Model {
  readonly inputs: (string | AgentInputItem[])[] = [];
  readonly #calls: ReturnType<typeof agentsCall>[];
  constructor(calls: ReturnType<typeof agentsCall>[]) {
    this.#calls = calls;
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.inputs.push(request.input);
    const output: ModelResponse['output'] =
      this.inputs.length === 1 ? this.#calls : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
    return { usage: new Usage(), output };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in this test');
  }
}

/** The function_call_result items a run sent to the model, by call id, as their output text. */
export function agentsOutputsOf(input: string | AgentInputItem[] | undefined): Record<string, string> {
  const items = Array.isArray(input) ? input : [];
  return Object.fromEntries(
    items.flatMap((item) => {
      if (item.type !== 'function_call_result') return [];
      const output = item.output;
      const text = typeof output === 'string' ? output : 'text' in output ? String(output.text) : JSON.stringify(output);
      return [[item.callId, text]];
    }),
  );
}
