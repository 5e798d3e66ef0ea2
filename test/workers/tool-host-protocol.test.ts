import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ToolHostClient, type RemoteCallSlot } from '../../runtime/tool-hosts/tool-host-client.js';
import type { RemoteCall } from '../../runtime/calls/call-context.js';
import { isToolHostReply } from '../../src/protocol/tool-host.js';
import { okResult } from '../../src/tool-result.js';
import { serveToolHost } from '../../workers/tool-host-server.js';

function linked(api: Parameters<typeof serveToolHost>[0]): { client: ToolHostClient; close(): void } {
  const { port1, port2 } = new MessageChannel();
  serveToolHost(api, { post: (reply) => port2.postMessage(reply), listen: (listener) => port2.on('message', listener) });
  const client = new ToolHostClient({ post: (message) => port1.postMessage(message), listen: (listener) => port1.on('message', listener) });
  return { client, close: () => port1.close() };
}

/** A call slot without a deadline that keeps the handle it is given. */
function slot(deadline = Number.POSITIVE_INFINITY): RemoteCallSlot & { remote?: RemoteCall } {
  const held: RemoteCallSlot & { remote?: RemoteCall } = { deadline, limit: 'toolTimeoutMs=1000', attach: (remote) => void (held.remote = remote) };
  return held;
}

describe('the tool host protocol', () => {
  it('runs calls (concurrent ones paired by seq) over a port', async () => {
    const seen: unknown[] = [];
    const { client, close } = linked({
      callTool: async (name, args, callId, prefetched) => {
        seen.push({ name, args, callId, prefetched });
        await new Promise((resolve) => setTimeout(resolve, name === 'slow' ? 20 : 0));
        return okResult(name);
      },
      describeHostTools: async () => [{ name: 't', description: 'd', inputSchema: {} }],
    });
    const [slow, fast] = await Promise.all([client.callTool('slow', { a: 1 }, 'id-1', slot()), client.callTool('fast', {}, 'id-2', slot(), { readFileStrict: { path: 'p', reply: { ok: false, error: { code: 'NOT_FOUND', message: 'm' } } } })]);
    expect([slow.content[0]?.text, fast.content[0]?.text]).toEqual(['slow', 'fast']);
    expect(seen).toContainEqual({ name: 'slow', args: { a: 1 }, callId: 'id-1', prefetched: undefined });
    close();
  });

  it('passes a failure of the host on as an error', async () => {
    const { client, close } = linked({ callTool: async () => Promise.reject(new Error('boom')), describeHostTools: async () => Promise.reject(new Error('module failed')) });
    await expect(client.callTool('x', {}, 'id', slot())).rejects.toThrow('boom');
    close();
  });

  it('fails pending calls when closed, and refuses new ones', async () => {
    const { client, close } = linked({ callTool: () => new Promise(() => undefined), describeHostTools: async () => [] });
    const pending = client.callTool('hang', {}, 'id', slot());
    client.close('the worker exited');
    await expect(pending).rejects.toThrow('the worker exited');
    await expect(client.callTool('x', {}, 'id', slot())).rejects.toThrow('the worker exited');
    close();
  });

  it("a cancel reaches the call's control in the host: its signal aborts with the cancel's code", async () => {
    const { client, close } = linked({
      callTool: (_name, _args, _callId, _prefetched, control) =>
        new Promise((resolve) => control.signal.addEventListener('abort', () => resolve(okResult(`${(control.abortReason as { code?: string }).code}: ${control.abortReason?.message}`)), { once: true })),
      describeHostTools: async () => [],
    });
    const held = slot();
    const pending = client.callTool('wait', {}, 'id', held);
    held.remote?.cancel('SESSION_CLOSED', 'the session closed');
    expect((await pending).content[0]?.text).toBe('SESSION_CLOSED: the session closed');
    close();
  });

  it("the call's deadline reaches the host on the host's own clock, and a cancel of an unknown code is ABORTED", async () => {
    const { client, close } = linked({
      callTool: async (_name, _args, _callId, _prefetched, control) => {
        const signal = control.signal;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return okResult(String((control.abortReason as { code?: string }).code));
      },
      describeHostTools: async () => [],
    });
    // A deadline already passed: the host's signal aborts with TIMEOUT as soon as it is read.
    expect((await client.callTool('late', {}, 'id', slot(performance.now() - 1))).content[0]?.text).toBe('TIMEOUT');
    const held = slot();
    const pending = client.callTool('wait', {}, 'id', held);
    held.remote?.cancel('NOT_A_CODE', 'stop');
    expect((await pending).content[0]?.text).toBe('ABORTED');
    close();
  });

  it.each([
    ['a result that is not a ToolResult', { v: 2, type: 'result', seq: 1, result: 'ok' }],
    ['content blocks without a type', { v: 2, type: 'result', seq: 1, result: { content: [{ text: 'x' }] } }],
    ['a listing (the control plane lists, not this protocol)', { v: 2, type: 'described', seq: 1, tools: [] }],
    ['another version', { v: 1, type: 'result', seq: 1, result: { content: [] } }],
    ['no seq', { v: 2, type: 'failed', message: 'x' }],
    ['a comlink reply', { id: 'x', type: 'RAW', value: { content: [] } }],
  ])('the main thread drops %s', (_name, message) => {
    expect(isToolHostReply(message)).toBe(false);
  });
});
