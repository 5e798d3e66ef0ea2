import { afterAll, describe, expect, it } from 'vitest';
import { admit } from '../../src/policy/index.js';
import { createBroker } from '../../runtime/broker/broker.js';
import { createBrokerServer, type BrokerRefusal } from '../../runtime/broker/broker-server.js';
import { CallTracker } from '../../runtime/broker/call-tracker.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { WriteQuota } from '../../runtime/broker/write-quota.js';
import type { CallContext } from '../../runtime/calls/call-context.js';
import { WalkPool } from '../../runtime/walk/index.js';
import type { Capability } from '../../src/capability/capability.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { okResult } from '../../src/tool-result.js';
import { TOOL_HOST_PROTOCOL_VERSION } from '../../src/protocol/tool-host.js';
import { inMemoryHost } from '../helpers/in-memory-tool-host.js';
import type { RemoteCallSlot } from '../../runtime/tool-hosts/tool-host-client.js';
import { makeTempTree, textOf } from '../helpers/temp-workspace.js';

// The whole call path (session side of the connection, broker server, broker, tool host, built-in tool) with no
// Worker and no process: the host runs in this thread over in-memory transports.
const ws = makeTempTree('tw-conn', { 'a.txt': 'alpha\n', 'secret/s.txt': 'TOP SECRET\n' });
const walk = new WalkPool({ maxThreads: 1 });
afterAll(async () => {
  await walk.close();
  ws.cleanup();
});

const capability: Capability = {
  sid: 's1', tools: ['read_file', 'write_file', 'list_dir'], workspaceRoot: ws.root, readRoots: [], allowOutsideWorkspace: false,
  excludedPaths: ['.git'], mcpServers: [], limits: DEFAULT_LIMITS, permissions: [], sandbox: 'off', net: false, env: [],
  toolModules: [], isolation: 'worker',
};
const session = { id: 's1', workspaceRoot: ws.root, readMaxChars: 10_000, toolTimeoutMs: 5_000, toolModules: [] };
const UNBOUNDED: CallContext = { signal: new AbortController().signal, deadline: Number.POSITIVE_INFINITY, limit: 'no limit' };
const limited = (ms: number): RemoteCallSlot => ({ deadline: Number.POSITIVE_INFINITY, limit: `toolTimeoutMs=${ms}`, attach: () => undefined });

function setUp(options: { bound?: boolean } = {}) {
  const calls = new CallTracker(() => false);
  const refusals: BrokerRefusal[] = [];
  const broker = createBroker({
    paths: new SessionPaths(capability), quota: new WriteQuota(0), limits: DEFAULT_LIMITS, walk,
    bash: async () => okResult('no bash here'), fetch: async () => okResult('no fetch'), mcp: async () => ({ result: okResult('no mcp') }),
    admitCtx: async (tool) => {
      const admitted = admit({ tool, subject: { tool, kind: 'file', paths: ['.'] }, layers: { session: [] } });
      return { decision: 'allow', rule: admitted.rule, reason: admitted.reason, admitted };
    }, auditCtx: () => undefined, log: () => undefined,
  });
  const server = createBrokerServer(broker, calls, (refusal) => refusals.push(refusal));
  return { calls, refusals, ...inMemoryHost(server, session, options) };
}

/** Posts a raw broker request from the host side and resolves with the main thread's reply to its seq. */
function forge(hostBroker: { post(m: unknown): void; listen(l: (d: unknown) => void): void }, request: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve) => {
    hostBroker.listen((data) => {
      const reply = data as { seq?: number; reply?: unknown };
      if (reply.seq === request['seq']) resolve(reply.reply);
    });
    hostBroker.post(request);
  });
}

describe('a tool host connection over an in-memory transport', () => {
  it('runs a built-in call end to end: the host reads through the broker under the call id', async () => {
    const h = setUp();
    const grant = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    const result = await h.connection.call('read_file', { path: 'a.txt' }, limited(5_000), grant.callId);
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(textOf(result)).toContain('alpha');
    expect(await h.connection.describeHostTools()).toEqual([]);
    expect(h.refusals).toEqual([]);
    await h.connection.terminate();
  });

  it('answers a call the broker refuses with the refusal, not the file', async () => {
    const h = setUp();
    // Admitted for a.txt; the host asks for another path under that id (what a compromised host would do).
    const grant = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    const result = await h.connection.call('read_file', { path: 'secret/s.txt' }, limited(5_000), grant.callId);
    expect(result.code).toBe('BROKER_REFUSED');
    expect(JSON.stringify(result)).not.toContain('TOP SECRET');
    await h.connection.terminate();
  });

  // Forged by code in the host, straight onto its broker channel: each refused and reported; the near miss served.
  it.each([
    ['another path under an in-flight call id', (id: string) => ({ v: 1, seq: 901, callId: id, type: 'readFileStrict', path: 'secret/s.txt' }), 'BROKER_REFUSED'],
    ['a write under a read call id', (id: string) => ({ v: 1, seq: 902, callId: id, type: 'writeFile', path: 'w.txt', content: 'x' }), 'BROKER_REFUSED'],
    ['a made-up call id', () => ({ v: 1, seq: 903, callId: 'made-up', type: 'readFileStrict', path: 'a.txt' }), 'BROKER_REFUSED'],
    ['an unknown request type', (id: string) => ({ v: 1, seq: 904, callId: id, type: 'readFileUnchecked', path: 'a.txt' }), 'BROKER_REFUSED'],
    ['another protocol version', (id: string) => ({ v: 2, seq: 905, callId: id, type: 'readFileStrict', path: 'a.txt' }), 'BROKER_REFUSED'],
    ['the admitted read itself (near miss)', (id: string) => ({ v: 1, seq: 906, callId: id, type: 'readFileStrict', path: 'a.txt' }), undefined],
  ] as const)('a forged broker request from the host: %s', async (_name, make, code) => {
    const h = setUp({ bound: false });
    const grant = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    const reply = (await forge(h.hostBroker, make(grant.callId))) as { ok: boolean; error?: { code: string }; value?: { text: string } };
    if (code === undefined) {
      expect(reply).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
      expect(h.refusals).toEqual([]);
    } else {
      expect(reply).toMatchObject({ ok: false, error: { code } });
      expect(h.refusals).toHaveLength(1);
    }
    await h.connection.terminate();
  });

  it('drops a forged answer that is not a ToolResult; the call waits for a real one', async () => {
    const h = setUp({ bound: false });
    const pending = h.connection.call('read_file', { path: 'a.txt' }, limited(5_000), 'id');
    let settled = false;
    void pending.then(() => (settled = true));
    h.hostChannel.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'result', seq: 1, result: 'TOP SECRET as a string' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    h.hostChannel.post({ v: TOOL_HOST_PROTOCOL_VERSION, type: 'result', seq: 1, result: okResult('real') });
    expect(textOf(await pending)).toBe('real');
    await h.connection.terminate();
  });

  it('a crash ends every pending call with WORKER_CRASHED, names the host, and the connection is dead', async () => {
    const h = setUp({ bound: false });
    const pending = [h.connection.call('read_file', { path: 'a.txt' }, limited(5_000), 'a'), h.connection.call('list_dir', {}, limited(5_000), 'b')];
    const listing = h.connection.describeHostTools();
    h.crash('the host exited with code 3');
    for (const result of await Promise.all(pending)) {
      expect(result.code).toBe('WORKER_CRASHED');
      expect(textOf(result)).toContain('the host exited with code 3; the in-memory host was replaced');
    }
    await expect(listing).rejects.toThrow('the host exited with code 3');
    expect(h.connection.alive).toBe(false);
    expect(h.ends).toEqual([{ reason: 'crashed', detail: 'the host exited with code 3' }]);
    expect((await h.connection.call('read_file', {}, limited(5_000), 'c')).code).toBe('WORKER_CRASHED');
  });

  it('a stop at the deadline answers TIMEOUT only once the host is gone', async () => {
    const h = setUp({ bound: false });
    const pending = h.connection.call('read_file', { path: 'a.txt' }, limited(1_234), 'a').then((result) => {
      h.events.push('answered');
      return result;
    });
    await h.connection.terminate({ reason: 'timeout', detail: 'overran' });
    const result = await pending;
    expect(result.code).toBe('TIMEOUT');
    expect(textOf(result)).toContain('toolTimeoutMs=1234; its in-memory host was replaced');
    expect(h.events).toEqual(['stopped', 'answered']);
  });

  it('a close ends pending calls with SESSION_CLOSED', async () => {
    const h = setUp({ bound: false });
    const pending = h.connection.call('read_file', { path: 'a.txt' }, limited(5_000), 'a');
    await h.connection.terminate();
    expect((await pending).code).toBe('SESSION_CLOSED');
    expect(h.ends).toEqual([{ reason: 'closed', detail: 'the session closed' }]);
  });
});
