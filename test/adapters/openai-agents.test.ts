import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, Runner } from '@openai/agents';
import { openAIAgentsTools } from '../../runtime/adapters/openai-agents.js';
import { abortedSignal, openFixture, type AdapterFixture } from './fixture.js';
import { agentsCall as functionCall, agentsOutputsOf as outputsOf, ScriptedAgentsModel as ScriptedModel } from './scripted-models.js';

let fx: AdapterFixture;
beforeAll(async () => {
  fx = await openFixture('tw-adapter-agents');
});
afterAll(() => fx.close());

describe('openAIAgentsTools (@openai/agents 0.14)', () => {
  it('runs an agent loop: a refusal and a denied approval reach the model as results with their code', async () => {
    const model = new ScriptedModel([
      functionCall('o1', 'read_file', { path: 'notes.md' }),
      functionCall('o2', 'read_file', { path: 'private/key.txt' }),
      functionCall('o3', 'write_file', { path: 'asked/ok-agents.txt', content: 'yes' }),
      functionCall('o4', 'write_file', { path: 'asked/no-agents.txt', content: 'no' }),
    ]);
    const agent = new Agent({ name: 'tester', instructions: 'test', model, tools: await openAIAgentsTools(fx.session) });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    const outputs = outputsOf(model.inputs[1]);
    expect(outputs.o1).toContain('hello from notes');
    expect(outputs.o2).toMatch(/^POLICY_DENIED: /);
    expect(outputs.o3).toContain('asked/ok-agents.txt');
    expect(outputs.o4).toMatch(/^APPROVAL_DENIED: /);
    expect(fx.exists('asked/ok-agents.txt')).toBe(true);
    expect(fx.exists('asked/no-agents.txt')).toBe(false);
  });

  it('strict tools take the nulls a strict model sends for absent optional arguments', async () => {
    const tools = await openAIAgentsTools(fx.session, { strict: true });
    const read = tools.find((t) => t.name === 'read_file');
    expect(read).toMatchObject({ strict: true, parameters: { additionalProperties: false, required: ['path', 'offset', 'limit'] } });
    const model = new ScriptedModel([functionCall('s1', 'read_file', { path: 'notes.md', offset: null, limit: null })]);
    const agent = new Agent({ name: 'strict', instructions: 'test', model, tools });
    await new Runner({ tracingDisabled: true }).run(agent, 'go');
    expect(outputsOf(model.inputs[1]).s1).toContain('hello from notes');
  });

  it('an already-aborted signal gives ABORTED without running', async () => {
    const tool = (await openAIAgentsTools(fx.session)).find((t) => t.name === 'write_file');
    const invoke = tool?.invoke as unknown as (ctx: unknown, input: string, details: { signal: AbortSignal }) => Promise<string>;
    const { RunContext } = await import('@openai/agents');
    const output = await invoke(new RunContext(), JSON.stringify({ path: 'aborted-agents.txt', content: 'x' }), { signal: abortedSignal() });
    expect(output).toMatch(/^ABORTED: /);
    expect(fx.exists('aborted-agents.txt')).toBe(false);
  });
});
