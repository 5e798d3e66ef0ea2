import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { claudeAgentMcpServer } from '../../runtime/adapters/claude-agent.js';
import { openFixture, type AdapterFixture } from './fixture.js';

let fx: AdapterFixture;
let config: McpSdkServerConfigWithInstance;
let client: Client;
beforeAll(async () => {
  fx = await openFixture('tw-adapter-claude');
  config = claudeAgentMcpServer(fx.session, { name: 'tw' });
  // What the Agent SDK does with an sdk server: connect its instance to an in-process transport.
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await config.instance.connect(serverSide);
  client = new Client({ name: 'claude-agent-sdk-test', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(async () => {
  await client.close();
  await fx.close();
});

const text = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as { text: string }[])[0]?.text ?? '';

describe('claudeAgentMcpServer (@anthropic-ai/claude-agent-sdk)', () => {
  it('is an sdk server config whose instance lists the tools with their JSON Schemas and annotations', async () => {
    expect(config).toMatchObject({ type: 'sdk', name: 'tw' });
    const { tools } = await client.listTools();
    const read = tools.find((t) => t.name === 'read_file');
    expect(read?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
    expect(read?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'write_file')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('answers the calls a model turn asks for: a refusal and a denied approval are isError results, an approved write runs', async () => {
    const turn = [
      { name: 'read_file', arguments: { path: 'private/key.txt' } },
      { name: 'write_file', arguments: { path: 'asked/ok-sdk.txt', content: 'yes' } },
      { name: 'write_file', arguments: { path: 'asked/no-sdk.txt', content: 'no' } },
    ];
    const results = [];
    for (const call of turn) results.push(await client.callTool(call));
    expect(results.map((r) => r.isError ?? false)).toEqual([true, false, true]);
    expect(text(results[0]!)).toMatch(/^POLICY_DENIED: /);
    expect(text(results[2]!)).toMatch(/^APPROVAL_DENIED: /);
    expect(fx.exists('asked/ok-sdk.txt')).toBe(true);
    expect(fx.exists('asked/no-sdk.txt')).toBe(false);
  });

  it('a call the client cancels before it is sent does not run', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client.callTool({ name: 'write_file', arguments: { path: 'aborted-sdk.txt', content: 'x' } }, undefined, { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(fx.exists('aborted-sdk.txt')).toBe(false);
  });
});
