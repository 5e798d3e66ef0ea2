import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { langchainTools } from '../../runtime/adapters/langchain.js';
import { abortedSignal, openFixture, type AdapterFixture } from './fixture.js';

let fx: AdapterFixture;
beforeAll(async () => {
  fx = await openFixture('tw-adapter-langchain');
});
afterAll(() => fx.close());

describe('langchainTools (@langchain/core 1.x)', () => {
  it('runs a bound model turn: each tool call gives a ToolMessage, refusals with status error', async () => {
    const tools = await langchainTools(fx.session);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const toolCalls = [
      { id: 'l1', name: 'read_file', args: { path: 'notes.md' }, type: 'tool_call' as const },
      { id: 'l2', name: 'read_file', args: { path: 'private/key.txt' }, type: 'tool_call' as const },
      { id: 'l3', name: 'write_file', args: { path: 'asked/ok-lc.txt', content: 'yes' }, type: 'tool_call' as const },
      { id: 'l4', name: 'write_file', args: { path: 'asked/no-lc.txt', content: 'no' }, type: 'tool_call' as const },
    ];
    const model = new FakeStreamingChatModel({ sleep: 0, chunks: [new AIMessageChunk({ content: '', tool_calls: toolCalls })] }).bindTools(tools);
    const messages: BaseMessage[] = [new HumanMessage('go')];
    const reply = await model.invoke(messages);
    messages.push(reply);
    for (const toolCall of reply.tool_calls ?? []) {
      const tool = byName.get(toolCall.name);
      if (tool === undefined) throw new Error(`the model asked for ${toolCall.name}`);
      messages.push((await tool.invoke(toolCall)) as ToolMessage);
    }
    const results = messages.slice(2) as ToolMessage[];
    expect(results.map((m) => [m.tool_call_id, m.status])).toEqual([
      ['l1', 'success'],
      ['l2', 'error'],
      ['l3', 'success'],
      ['l4', 'error'],
    ]);
    expect(results[0]?.content).toContain('hello from notes');
    expect(results[1]?.content).toMatch(/^POLICY_DENIED: /);
    expect(results[3]?.content).toMatch(/^APPROVAL_DENIED: /);
    expect(fx.exists('asked/ok-lc.txt')).toBe(true);
    expect(fx.exists('asked/no-lc.txt')).toBe(false);
  });

  it('an aborted invocation rejects (LangChain) and never reaches the session', async () => {
    const tool = (await langchainTools(fx.session)).find((t) => t.name === 'write_file');
    await expect(tool?.invoke({ id: 'a1', name: 'write_file', args: { path: 'aborted-lc.txt', content: 'x' }, type: 'tool_call' }, { signal: abortedSignal() })).rejects.toThrow(/abort/i);
    expect(fx.exists('aborted-lc.txt')).toBe(false);
  });
});
