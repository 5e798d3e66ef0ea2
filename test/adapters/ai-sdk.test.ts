import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { aiSdkTools } from '../../runtime/adapters/ai-sdk.js';
import type { ToolResult } from '../../runtime/index.js';
import { abortedSignal, openFixture, type AdapterFixture } from './fixture.js';
import { aiSdkCall as call, aiSdkOutputsOf, scriptedAiSdkModel as scriptedModel } from './scripted-models.js';

let fx: AdapterFixture;
beforeAll(async () => {
  fx = await openFixture('tw-adapter-ai');
});
afterAll(() => fx.close());

describe('aiSdkTools (ai 6)', () => {
  it('gives every session tool with its JSON Schema', async () => {
    const tools = await aiSdkTools(fx.session);
    expect(Object.keys(tools).sort()).toEqual(['grep', 'read_file', 'write_file']);
    expect(tools.read_file?.description).toMatch(/^Read a UTF-8 text file/);
    expect(tools.read_file?.title).toBe('Read file');
  });

  it('runs a loop where a refusal and a denied approval reach the model as error results and an approved write runs', async () => {
    const prompts: LanguageModelV3CallOptions['prompt'][] = [];
    const model = scriptedModel(
      [
        call('c1', 'read_file', { path: 'private/key.txt' }),
        call('c2', 'write_file', { path: 'asked/ok.txt', content: 'approved' }),
        call('c3', 'write_file', { path: 'asked/no.txt', content: 'refused' }),
        call('c4', 'read_file', { path: 'notes.md' }),
      ],
      prompts,
    );
    const result = await generateText({ model, tools: await aiSdkTools(fx.session), stopWhen: stepCountIs(3), prompt: 'go' });
    expect(result.text).toBe('done');
    const outputs = aiSdkOutputsOf(prompts[1]);
    expect(outputs.c1).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^POLICY_DENIED: /) });
    expect(outputs.c2).toMatchObject({ type: 'text', value: expect.stringMatching(/asked\/ok.txt/) });
    expect(outputs.c3).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^APPROVAL_DENIED: /) });
    expect(outputs.c4).toMatchObject({ type: 'text', value: expect.stringContaining('hello from notes') });
    expect(fx.exists('asked/ok.txt')).toBe(true);
    expect(fx.exists('asked/no.txt')).toBe(false);
    expect(fx.approvals.map((request) => request.paths)).toEqual([['asked/ok.txt'], ['asked/no.txt']]);
    const steps: ModelMessage[] = result.response.messages;
    expect(steps.some((message) => message.role === 'tool')).toBe(true);
  });

  it('an already-aborted abortSignal gives an ABORTED result without calling the tool', async () => {
    const tools = await aiSdkTools(fx.session);
    const output = (await tools.write_file?.execute?.({ path: 'aborted.txt', content: 'x' }, { toolCallId: 'a1', messages: [], abortSignal: abortedSignal() })) as ToolResult;
    expect(output).toMatchObject({ isError: true, code: 'ABORTED' });
    expect(fx.exists('aborted.txt')).toBe(false);
  });
});
