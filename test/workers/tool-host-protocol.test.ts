import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ToolHostClient } from '../../runtime/tool-hosts/tool-host-client.js';
import { isToolHostReply } from '../../src/protocol/tool-host.js';
import { okResult } from '../../src/tool-result.js';
import { serveToolHost } from '../../workers/tool-host-server.js';

function linked(api: Parameters<typeof serveToolHost>[0]): { client: ToolHostClient; close(): void } {
  const { port1, port2 } = new MessageChannel();
  serveToolHost(api, { post: (reply) => port2.postMessage(reply), listen: (listener) => port2.on('message', listener) });
  const client = new ToolHostClient({ post: (message) => port1.postMessage(message), listen: (listener) => port1.on('message', listener) });
  return { client, close: () => port1.close() };
}

describe('the tool host protocol', () => {
  it('runs calls (concurrent ones paired by seq) and listings over a port', async () => {
    const seen: unknown[] = [];
    const { client, close } = linked({
      callTool: async (name, args, callId, prefetched) => {
        seen.push({ name, args, callId, prefetched });
        await new Promise((resolve) => setTimeout(resolve, name === 'slow' ? 20 : 0));
        return okResult(name);
      },
      describeHostTools: async () => [{ name: 't', description: 'd', inputSchema: {} }],
    });
    const [slow, fast] = await Promise.all([client.callTool('slow', { a: 1 }, 'id-1'), client.callTool('fast', {}, 'id-2', { readFileStrict: { path: 'p', reply: { ok: false, error: { code: 'NOT_FOUND', message: 'm' } } } })]);
    expect([slow.content[0]?.text, fast.content[0]?.text]).toEqual(['slow', 'fast']);
    expect(seen).toContainEqual({ name: 'slow', args: { a: 1 }, callId: 'id-1', prefetched: undefined });
    expect(await client.describeHostTools()).toEqual([{ name: 't', description: 'd', inputSchema: {} }]);
    close();
  });

  it('passes a failure of the host on as an error', async () => {
    const { client, close } = linked({ callTool: async () => Promise.reject(new Error('boom')), describeHostTools: async () => Promise.reject(new Error('module failed')) });
    await expect(client.callTool('x', {}, 'id')).rejects.toThrow('boom');
    await expect(client.describeHostTools()).rejects.toThrow('module failed');
    close();
  });

  it('fails pending calls when closed, and refuses new ones', async () => {
    const { client, close } = linked({ callTool: () => new Promise(() => undefined), describeHostTools: async () => [] });
    const pending = client.callTool('hang', {}, 'id');
    client.close('the worker exited');
    await expect(pending).rejects.toThrow('the worker exited');
    await expect(client.callTool('x', {}, 'id')).rejects.toThrow('the worker exited');
    close();
  });

  it.each([
    ['a result that is not a ToolResult', { v: 1, type: 'result', seq: 1, result: 'ok' }],
    ['content blocks without a type', { v: 1, type: 'result', seq: 1, result: { content: [{ text: 'x' }] } }],
    ['a listing that is not an array', { v: 1, type: 'described', seq: 1, tools: {} }],
    ['another version', { v: 2, type: 'result', seq: 1, result: { content: [] } }],
    ['no seq', { v: 1, type: 'failed', message: 'x' }],
    ['a comlink reply', { id: 'x', type: 'RAW', value: { content: [] } }],
  ])('the main thread drops %s', (_name, message) => {
    expect(isToolHostReply(message)).toBe(false);
  });
});
