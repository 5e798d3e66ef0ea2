import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicTools, runAnthropicToolUse, type AnthropicToolUseBlock } from '../../runtime/adapters/anthropic.js';
import { abortedSignal, openFixture, type AdapterFixture } from './fixture.js';

let fx: AdapterFixture;
beforeAll(async () => {
  fx = await openFixture('tw-adapter-anthropic');
});
afterAll(() => fx.close());

const use = (id: string, name: string, input: unknown): AnthropicToolUseBlock => ({ type: 'tool_use', id, name, input });

describe('anthropicTools / runAnthropicToolUse', () => {
  it('gives { name, description, input_schema } per tool', async () => {
    const tools = await anthropicTools(fx.session);
    expect(tools.find((t) => t.name === 'read_file')).toEqual({ name: 'read_file', description: expect.stringMatching(/Read/), input_schema: expect.objectContaining({ type: 'object', required: ['path'] }) });
  });

  it('answers a scripted assistant turn with tool_result blocks, is_error on refusals', async () => {
    // A scripted model: its one turn asks for four tools; the loop answers each in the next user message.
    const assistantContent = [
      { type: 'text' as const, text: 'Let me look.' },
      use('t1', 'read_file', { path: 'notes.md' }),
      use('t2', 'read_file', { path: 'private/key.txt' }),
      use('t3', 'write_file', { path: 'asked/ok-claude.txt', content: 'yes' }),
      use('t4', 'write_file', { path: 'asked/nope.txt', content: 'no' }),
      use('t5', 'read_file', 'not an object'),
    ];
    const results = [];
    for (const block of assistantContent) if (block.type === 'tool_use') results.push(await runAnthropicToolUse(fx.session, block));
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['t1', false],
      ['t2', true],
      ['t3', false],
      ['t4', true],
      ['t5', true],
    ]);
    expect(results[0]?.content).toEqual([{ type: 'text', text: expect.stringContaining('hello from notes') }]);
    expect(results[1]?.content[0]?.text).toMatch(/^POLICY_DENIED: /);
    expect(results[3]?.content[0]?.text).toMatch(/^APPROVAL_DENIED: /);
    expect(results[4]?.content[0]?.text).toMatch(/^INVALID_ARGS: /);
    expect(fx.exists('asked/ok-claude.txt')).toBe(true);
    expect(fx.exists('asked/nope.txt')).toBe(false);
  });

  it('an aborted tool_use gives an is_error result without running', async () => {
    const result = await runAnthropicToolUse(fx.session, use('a1', 'write_file', { path: 'aborted.txt', content: 'x' }), { signal: abortedSignal() });
    expect(result).toMatchObject({ tool_use_id: 'a1', is_error: true, content: [{ text: expect.stringMatching(/^ABORTED: /) }] });
    expect(fx.exists('aborted.txt')).toBe(false);
  });
});
