import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropStrictNulls, openAITools, runOpenAIToolCall, toStrictSchema, type OpenAIChatToolCall, type OpenAIFunctionCall } from '../../runtime/adapters/openai.js';
import { describeBuiltinTool } from '../../src/tools/tool-info.js';
import { abortedSignal, openFixture, type AdapterFixture } from './fixture.js';

let fx: AdapterFixture;
beforeAll(async () => {
  fx = await openFixture('tw-adapter-openai');
});
afterAll(() => fx.close());

const chatCall = (id: string, name: string, args: unknown): OpenAIChatToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('openAITools / runOpenAIToolCall (Chat Completions)', () => {
  it('gives function tools and runs a scripted assistant turn: refusals come back as tool messages with the code', async () => {
    const tools = await openAITools(fx.session, { api: 'chat' });
    expect(tools.map((t) => t.function.name).sort()).toEqual(['grep', 'read_file', 'write_file']);
    expect(tools[0]).toMatchObject({ type: 'function', function: { strict: false, parameters: { type: 'object' } } });
    // What a model would answer: one assistant message with tool calls.
    const assistant = {
      role: 'assistant' as const,
      tool_calls: [
        chatCall('c1', 'read_file', { path: 'private/key.txt' }),
        chatCall('c2', 'write_file', { path: 'asked/ok-chat.txt', content: 'yes' }),
        chatCall('c3', 'write_file', { path: 'asked/denied-chat.txt', content: 'no' }),
        { id: 'c4', type: 'function' as const, function: { name: 'read_file', arguments: '{not json' } },
      ],
    };
    const messages: unknown[] = [{ role: 'user', content: 'go' }, assistant];
    for (const toolCall of assistant.tool_calls) messages.push(await runOpenAIToolCall(fx.session, toolCall));
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: expect.stringMatching(/^POLICY_DENIED: /) },
      { role: 'tool', tool_call_id: 'c2', content: expect.stringContaining('asked/ok-chat.txt') },
      { role: 'tool', tool_call_id: 'c3', content: expect.stringMatching(/^APPROVAL_DENIED: /) },
      { role: 'tool', tool_call_id: 'c4', content: expect.stringMatching(/^INVALID_ARGS: the arguments of 'read_file' are not JSON/) },
    ]);
    expect(fx.exists('asked/ok-chat.txt')).toBe(true);
    expect(fx.exists('asked/denied-chat.txt')).toBe(false);
  });

  it('an aborted call is answered ABORTED without running', async () => {
    const reply = await runOpenAIToolCall(fx.session, chatCall('a1', 'write_file', { path: 'aborted-chat.txt', content: 'x' }), { signal: abortedSignal() });
    expect(reply.content).toMatch(/^ABORTED: /);
    expect(fx.exists('aborted-chat.txt')).toBe(false);
  });
});

describe('openAITools / runOpenAIToolCall (Responses, strict)', () => {
  it('rewrites schemas for strict mode and maps the nulls of absent optional arguments back', async () => {
    const tools = await openAITools(fx.session, { api: 'responses', strict: true });
    const read = tools.find((t) => t.name === 'read_file');
    expect(read).toMatchObject({ type: 'function', strict: true });
    expect(read?.parameters).toMatchObject({
      type: 'object',
      required: ['path', 'offset', 'limit'],
      additionalProperties: false,
      properties: { offset: { type: ['integer', 'null'] }, limit: { type: ['integer', 'null'] } },
    });
    const item: OpenAIFunctionCall = { type: 'function_call', call_id: 'r1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.md', offset: null, limit: null }) };
    const output = await runOpenAIToolCall(fx.session, item);
    expect(output).toEqual({ type: 'function_call_output', call_id: 'r1', output: expect.stringContaining('hello from notes') });
    const refused = await runOpenAIToolCall(fx.session, { ...item, call_id: 'r2', arguments: JSON.stringify({ path: 'private/key.txt', offset: null, limit: null }) });
    expect(refused.output).toMatch(/^POLICY_DENIED: /);
  });

  it('without strict the nulls are passed as sent, which the schema refuses', async () => {
    await openAITools(fx.session, { api: 'responses' });
    const output = await runOpenAIToolCall(fx.session, { type: 'function_call', call_id: 'n1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.md', offset: null }) });
    expect(output.output).toMatch(/^INVALID_ARGS: /);
  });

  it('leaves a schema strict mode cannot express (a free-form map) to non-strict, and drops unsupported keywords', () => {
    expect(toStrictSchema(describeBuiltinTool('web_fetch').inputSchema)).toBeUndefined();
    const strict = toStrictSchema(describeBuiltinTool('grep').inputSchema);
    expect(strict).toMatchObject({ additionalProperties: false, properties: { pattern: { type: 'string' } } });
    expect(strict?.properties).not.toHaveProperty('pattern.minLength');
    expect(JSON.stringify(strict)).not.toMatch(/minLength/);
    const nested = { type: 'object', properties: { opts: { type: 'object', properties: { deep: { enum: ['a', 'b'] } } } } };
    expect(toStrictSchema(nested)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['opts'],
      properties: {
        opts: { type: ['object', 'null'], additionalProperties: false, required: ['deep'], properties: { deep: { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] } } },
      },
    });
    expect(dropStrictNulls({ opts: { deep: null }, keep: null }, nested)).toEqual({ opts: {}, keep: null });
  });
});
