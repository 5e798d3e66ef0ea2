import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, stepCountIs } from 'ai';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { ToolMessage } from '@langchain/core/messages';
import { Agent, Runner } from '@openai/agents';
import { aiSdkTools } from '../../runtime/adapters/ai-sdk.js';
import { runAnthropicToolUse } from '../../runtime/adapters/anthropic.js';
import { langchainTools } from '../../runtime/adapters/langchain.js';
import { openAIAgentsTools } from '../../runtime/adapters/openai-agents.js';
import { openAITools, runOpenAIToolCall } from '../../runtime/adapters/openai.js';
import type { Session } from '../../runtime/index.js';
import { missingPayload, openPayloadFixture, payloadCases, type PayloadCase, type PayloadFixture } from './payload-cases.js';
import { agentsCall, agentsOutputsOf, aiSdkCall, aiSdkOutputsOf, ScriptedAgentsModel, scriptedAiSdkModel } from './scripted-models.js';

/** What the model gets back for each case through one adapter, and whether the adapter marked it as an error. */
type Seen = Map<PayloadCase, { text: string; error: boolean }>;

const idOf = (c: PayloadCase) => `call_${c.tool}`;

/** Each adapter driven as its framework's loop would drive it, answering one model turn that calls every case. */
const ADAPTERS: { name: string; run: (session: Session, cases: PayloadCase[]) => Promise<Seen> }[] = [
  {
    name: 'AI SDK generateText',
    run: async (session, cases) => {
      const prompts: LanguageModelV3CallOptions['prompt'][] = [];
      const model = scriptedAiSdkModel(cases.map((c) => aiSdkCall(idOf(c), c.tool, c.args)), prompts);
      await generateText({ model, tools: await aiSdkTools(session), stopWhen: stepCountIs(2), prompt: 'go' });
      const outputs = aiSdkOutputsOf(prompts[1]) as Record<string, { type: string; value: string }>;
      return new Map(cases.map((c) => [c, { text: outputs[idOf(c)]?.value ?? '', error: outputs[idOf(c)]?.type !== 'text' }]));
    },
  },
  {
    name: 'OpenAI Chat Completions',
    run: async (session, cases) => {
      await openAITools(session, { api: 'chat', strict: true });
      const replies = await Promise.all(cases.map((c) => runOpenAIToolCall(session, { id: idOf(c), type: 'function', function: { name: c.tool, arguments: JSON.stringify(c.args) } })));
      return new Map(cases.map((c, i) => [c, { text: replies[i]!.content, error: /^[A-Z_]+: /.test(replies[i]!.content) }]));
    },
  },
  {
    name: 'OpenAI Responses',
    run: async (session, cases) => {
      await openAITools(session, { api: 'responses' });
      const replies = await Promise.all(cases.map((c) => runOpenAIToolCall(session, { type: 'function_call', call_id: idOf(c), name: c.tool, arguments: JSON.stringify(c.args) })));
      return new Map(cases.map((c, i) => [c, { text: replies[i]!.output, error: /^[A-Z_]+: /.test(replies[i]!.output) }]));
    },
  },
  {
    name: 'Anthropic Messages',
    run: async (session, cases) => {
      const replies = await Promise.all(cases.map((c) => runAnthropicToolUse(session, { type: 'tool_use', id: idOf(c), name: c.tool, input: c.args })));
      return new Map(cases.map((c, i) => [c, { text: replies[i]!.content.map((b) => b.text).join('\n'), error: replies[i]!.is_error === true }]));
    },
  },
  {
    name: 'LangChain tools',
    run: async (session, cases) => {
      const tools = new Map((await langchainTools(session)).map((t) => [t.name, t]));
      const replies = (await Promise.all(cases.map((c) => tools.get(c.tool)!.invoke({ id: idOf(c), name: c.tool, args: c.args, type: 'tool_call' })))) as ToolMessage[];
      return new Map(cases.map((c, i) => [c, { text: String(replies[i]!.content), error: replies[i]!.status === 'error' }]));
    },
  },
  {
    name: 'OpenAI Agents SDK run',
    run: async (session, cases) => {
      const model = new ScriptedAgentsModel(cases.map((c) => agentsCall(idOf(c), c.tool, c.args)));
      await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'payload', instructions: 'test', model, tools: await openAIAgentsTools(session) }), 'go');
      const outputs = agentsOutputsOf(model.inputs[1]);
      return new Map(cases.map((c) => [c, { text: outputs[idOf(c)] ?? '', error: /^[A-Z_]+: /.test(outputs[idOf(c)] ?? '') }]));
    },
  },
];

let fx: PayloadFixture;
beforeAll(async () => {
  fx = await openPayloadFixture('tw-payload-frameworks');
});
afterAll(() => fx.close());

describe('every built-in tool brings its payload to the model through each framework adapter', () => {
  it.each(ADAPTERS)('$name', async ({ run }) => {
    const { session } = await fx.openSession();
    const cases = payloadCases(fx.pageUrl);
    const seen = await run(session, cases);
    expect(cases.filter((c) => seen.get(c)?.error !== false).map((c) => `${c.tool}: ${seen.get(c)?.text}`)).toEqual([]);
    expect(missingPayload(cases, new Map(cases.map((c) => [c, seen.get(c)?.text ?? ''])))).toEqual([]);
  });
});
