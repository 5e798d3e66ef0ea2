import fs from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createBroker } from '../../runtime/broker/broker.js';
import { createBrokerServer, type BrokerRefusal } from '../../runtime/broker/broker-server.js';
import { CallTracker } from '../../runtime/broker/call-tracker.js';
import { mainThreadTurn } from '../../runtime/calls/main-thread-turn.js';
import type { CallContext } from '../../runtime/calls/call-context.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { WriteQuota } from '../../runtime/broker/write-quota.js';
import { WalkPool } from '../../runtime/walk/index.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { okResult } from '../../src/tool-result.js';
import { admit } from '../../src/policy/index.js';
import type { BrokerResponse } from '../../src/protocol/broker.js';
import type { Capability } from '../../src/capability/capability.js';
import { makeTempTree } from '../helpers/temp-workspace.js';

const ws = makeTempTree('tw-broker', { 'a.txt': 'alpha\n', 'secret/s.txt': 'TOP SECRET\n' });
const walk = new WalkPool({ maxThreads: 1 });
afterAll(async () => {
  await walk.close();
  ws.cleanup();
});

const capability: Capability = {
  sid: 's1', tools: ['read_file', 'write_file', 'my_tool'], workspaceRoot: ws.root, readRoots: [], allowOutsideWorkspace: false,
  excludedPaths: ['.git'], mcpServers: [], limits: DEFAULT_LIMITS, permissions: [], sandbox: 'off', net: false, env: [],
  toolModules: [], isolation: 'worker',
};

interface Harness {
  calls: CallTracker;
  refusals: BrokerRefusal[];
  admitted: string[];
  /** Posts a message; resolves with the reply, or 'no reply' after `waitMs`. */
  send(data: unknown, waitMs?: number): Promise<unknown>;
  server: ReturnType<typeof createBrokerServer>;
}

function setUp(): Harness {
  const calls = new CallTracker((name) => name === 'my_tool');
  const admitted: string[] = [];
  const refusals: BrokerRefusal[] = [];
  const broker = createBroker({
    paths: new SessionPaths(capability),
    quota: new WriteQuota(0),
    limits: DEFAULT_LIMITS,
    walk,
    bash: async (args) => okResult(`ran ${String(args['command'])}`),
    fetch: async () => okResult('fetched'),
    mcp: async () => ({ result: okResult('called') }),
    admitCtx: async (tool, args) => {
      admitted.push(tool);
      // The real admit() over a rule that denies secret/**: the broker answers with its code and reason as data.
      const decided = admit({ tool, subject: { tool, kind: 'file', paths: [String(args['path'] ?? '.')] }, layers: { session: [{ [tool]: { deny: ['secret/**'] } }] } });
      return decided.decision === 'deny'
        ? { decision: 'deny', rule: decided.rule, reason: decided.reason, code: decided.code ?? 'POLICY_DENIED', admitted: decided }
        : { decision: 'allow', rule: decided.rule, reason: decided.reason, admitted: decided };
    },
    auditCtx: () => undefined,
    log: () => undefined,
  });
  const server = createBrokerServer(broker, calls, (refusal) => refusals.push(refusal));
  // Every message crosses structuredClone, as it would a port.
  const send = (data: unknown, waitMs = 10_000): Promise<unknown> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve('no reply'), waitMs);
      server(structuredClone(data), (response) => {
        clearTimeout(timer);
        resolve(response.reply);
      });
    });
  return { calls, refusals, admitted, send, server };
}

/** A call context that never aborts and has no deadline: these tests are about the grants, not the deadlines. */
const UNBOUNDED: CallContext = { signal: new AbortController().signal, deadline: Number.POSITIVE_INFINITY, limit: 'no limit' };

const request = (callId: string | undefined, fields: Record<string, unknown>): Record<string, unknown> => ({ v: 1, seq: 7, ...(callId === undefined ? {} : { callId }), ...fields });

describe('per-call broker capabilities', () => {
  it('serves the legitimate requests of each built-in call, under its id', async () => {
    const h = setUp();
    const read = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    expect(await h.send(request(read.callId, { type: 'readFileStrict', path: 'a.txt' }))).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
    const write = h.calls.enter('write_file', { path: 'b.txt', content: 'beta' }, UNBOUNDED);
    expect(await h.send(request(write.callId, { type: 'writeFile', path: 'b.txt', content: 'beta' }))).toMatchObject({ ok: true, value: { bytes: 4 } });
    const edit = h.calls.enter('edit_file', { path: 'b.txt', old_string: 'beta', new_string: 'gamma' }, UNBOUNDED);
    expect(await h.send(request(edit.callId, { type: 'readFileStrict', path: 'b.txt' }))).toMatchObject({ ok: true });
    expect(await h.send(request(edit.callId, { type: 'writeFile', path: 'b.txt', content: 'gamma' }))).toMatchObject({ ok: true });
    const patch = '*** Begin Patch\n*** Add File: c.txt\n+c\n*** End Patch\n';
    const apply = h.calls.enter('apply_patch', { patch }, UNBOUNDED);
    expect(await h.send(request(apply.callId, { type: 'readFile', path: 'c.txt' }))).toMatchObject({ ok: true });
    expect(await h.send(request(apply.callId, { type: 'applyChanges', steps: [{ kind: 'write', path: 'c.txt', content: 'c\n' }] }))).toMatchObject({ ok: true });
    const host = h.calls.enter('my_tool', {}, UNBOUNDED);
    expect(await h.send(request(host.callId, { type: 'ctxFs', op: 'readFile', args: { path: 'a.txt' } }))).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
    expect(await h.send(request(host.callId, { type: 'ctxMcp', tool: 'mcp__x__y', args: {} }))).toMatchObject({ content: [{ text: 'called' }] });
    expect(await h.send(request(host.callId, { type: 'log', level: 'info', message: 'hi', data: { a: [1] } }))).toBeUndefined();
    expect(h.refusals).toEqual([]);
  });

  it.each([
    ['list_dir', {}, { type: 'listDir' }],
    ['glob', { pattern: '*.txt' }, { type: 'glob', pattern: '*.txt' }],
    ['grep', { pattern: 'alpha' }, { type: 'grep', request: { pattern: 'alpha' } }],
  ])('serves nothing under the id of a %s call: it runs on the main thread, so no worker asks for it', async (tool, args, fields) => {
    const h = setUp();
    const call = h.calls.enter(tool, args, UNBOUNDED);
    expect(await h.send(request(call.callId, fields))).toMatchObject({ ok: false, error: { code: 'BROKER_REFUSED' } });
    expect(h.refusals).toHaveLength(1);
  });

  it('applies the rules of the built-in tool to each ctx request of a host tool call', async () => {
    const h = setUp();
    const host = h.calls.enter('my_tool', {}, UNBOUNDED);
    expect(await h.send(request(host.callId, { type: 'ctxFs', op: 'readFile', args: { path: 'secret/s.txt' } }))).toEqual({ ok: false, error: { code: 'POLICY_DENIED', message: "read_file denied by session rule read_file.deny 'secret/**' (for 'secret/s.txt')" } });
    expect(h.admitted).toEqual(['read_file']);
  });

  it('serves each request of a built-in call once: a replay is refused', async () => {
    const h = setUp();
    const write = h.calls.enter('write_file', { path: 'once.txt', content: 'x' }, UNBOUNDED);
    const asked = request(write.callId, { type: 'writeFile', path: 'once.txt', content: 'x' });
    expect(await h.send(asked)).toMatchObject({ ok: true });
    expect(await h.send(asked)).toMatchObject({ ok: false, error: { code: 'BROKER_REFUSED', message: expect.stringContaining('already served') } });
    const host = h.calls.enter('my_tool', {}, UNBOUNDED);
    const exec = request(host.callId, { type: 'ctxExec', args: { command: 'true' } });
    expect(await h.send(exec)).toMatchObject({ content: [{ text: 'ran true' }] });
    // A host tool's ctx requests are each checked against the rules instead, so they may repeat.
    expect(await h.send(exec)).toMatchObject({ content: [{ text: 'ran true' }] });
    expect(h.refusals).toHaveLength(1);
  });

  type Ids = { read: string; write: string; host: string; finished: string; otherSession: string };
  const FORGED: [string, (ids: Ids) => unknown][] = [
    ['a denied path under a read_file id', ({ read }) => request(read, { type: 'readFileStrict', path: 'secret/s.txt' })],
    ['a read of another path under a read_file id', ({ read }) => request(read, { type: 'readFile', path: 'a.txt' })],
    ["another tool's op (write) under a read_file id", ({ read }) => request(read, { type: 'writeFile', path: 'a.txt', content: 'x' })],
    ['other content under a write_file id', ({ write }) => request(write, { type: 'writeFile', path: 'b.txt', content: 'pwned' })],
    ['another path under a write_file id', ({ write }) => request(write, { type: 'writeFile', path: 'secret/w.txt', content: 'beta' })],
    ['a listing under a read_file id', ({ read }) => request(read, { type: 'listDir', path: 'secret' })],
    ['bash under a read_file id (bash runs on the main thread, never through the broker)', ({ read }) => request(read, { type: 'bash', args: { command: 'cat secret/s.txt' } })],
    ['ctx.exec under a built-in call id', ({ read }) => request(read, { type: 'ctxExec', args: { command: 'cat secret/s.txt' } })],
    ['a ctx request under a built-in call id', ({ read }) => request(read, { type: 'ctxFs', op: 'readFile', args: { path: 'secret/s.txt' } })],
    ['a built-in op under a host tool id', ({ host }) => request(host, { type: 'readFileStrict', path: 'secret/s.txt' })],
    ["a finished call's id", ({ finished }) => request(finished, { type: 'readFileStrict', path: 'a.txt' })],
    ["another session's id", ({ otherSession }) => request(otherSession, { type: 'readFileStrict', path: 'a.txt' })],
    ['a made-up id', () => request('00000000-0000-4000-8000-000000000000', { type: 'readFileStrict', path: 'a.txt' })],
    ['no id', () => request(undefined, { type: 'readFileStrict', path: 'a.txt' })],
    ['an unknown method', ({ read }) => request(read, { type: 'readFileUnchecked', path: 'secret/s.txt' })],
    ['a prototype method name', ({ read }) => request(read, { type: 'constructor' })],
    ['a path that is not a string', ({ read }) => request(read, { type: 'readFileStrict', path: ['a.txt'] })],
    ['an extra field', ({ read }) => request(read, { type: 'readFileStrict', path: 'a.txt', root: '/' })],
    ['another protocol version', ({ read }) => ({ ...request(read, { type: 'readFileStrict', path: 'a.txt' }), v: 2 })],
    ['a prototype key in ctx args', ({ host }) => request(host, { type: 'ctxFs', op: 'readFile', args: JSON.parse('{"path":"a.txt","__proto__":{"path":"secret/s.txt"}}') })],
    ['an unknown ctx.fs op', ({ host }) => request(host, { type: 'ctxFs', op: 'readFileUnchecked', args: { path: 'a.txt' } })],
    ['a patch step outside the patch', ({ read }) => request(read, { type: 'applyChanges', steps: [{ kind: 'write', path: 'secret/w.txt', content: 'x' }] })],
  ];

  it.each(FORGED)('refuses %s with BROKER_REFUSED and reports it', async (_name, make) => {
    const h = setUp();
    const other = setUp();
    const ended = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    h.calls.leave(ended.callId);
    const ids: Ids = {
      read: h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED).callId,
      write: h.calls.enter('write_file', { path: 'b.txt', content: 'beta' }, UNBOUNDED).callId,
      host: h.calls.enter('my_tool', {}, UNBOUNDED).callId,
      finished: ended.callId,
      otherSession: other.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED).callId,
    };
    const reply = (await h.send(make(ids))) as { code?: string; error?: { code?: string } };
    expect(reply.code ?? reply.error?.code).toBe('BROKER_REFUSED');
    expect(JSON.stringify(reply)).not.toContain('TOP SECRET');
    expect(h.refusals).toHaveLength(1);
    expect(h.refusals[0]?.reason).toBeTruthy();
    expect(fs.existsSync(ws.at('secret/w.txt'))).toBe(false);
    expect(fs.readFileSync(ws.at('a.txt'), 'utf8')).toBe('alpha\n');
  });

  it.each([
    ['not an object', 'readFileStrict'],
    ['null', null],
    ['a comlink SET', { id: 'x', type: 'SET', path: ['__proto__', 'tw_polluted'], value: { type: 'RAW', value: true } }],
    ['a comlink APPLY', { id: 'x', type: 'APPLY', path: ['readFileStrict'], argumentList: [{ type: 'RAW', value: 'a.txt' }] }],
  ])('reports a message with no seq (%s) and answers nothing', async (_name, data) => {
    const h = setUp();
    h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    expect(await h.send(data, 200)).toBe('no reply');
    expect(h.refusals).toHaveLength(1);
    expect(({} as Record<string, unknown>)['tw_polluted']).toBeUndefined();
  });

  it('records at most 64 characters of a type the sender made up', async () => {
    const h = setUp();
    await h.send(request('x', { type: 'y'.repeat(100_000) }));
    expect(h.refusals[0]?.type).toBe('y'.repeat(64));
  });

  it('refuses what a compromised worker thread posts on its broker port, and serves its legitimate request', async () => {
    const h = setUp();
    const { callId } = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (data: unknown) => h.server(data, (response: BrokerResponse) => port1.postMessage(response)));
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const { port, callId } = workerData;
      const replies = {};
      port.on('message', (m) => { replies[m.seq] = m.reply; if (Object.keys(replies).length === 3) { parentPort.postMessage(replies); port.close(); } });
      port.postMessage({ v: 1, seq: 1, callId, type: 'readFileStrict', path: 'secret/s.txt' });
      port.postMessage({ v: 1, seq: 2, callId, type: 'writeFile', path: 'secret/w.txt', content: 'x' });
      port.postMessage({ v: 1, seq: 3, callId, type: 'readFileStrict', path: 'a.txt' });`;
    const worker = new Worker(code, { eval: true, workerData: { port: port2, callId }, transferList: [port2] });
    const replies = await new Promise<Record<number, unknown>>((resolve) => worker.once('message', resolve));
    await worker.terminate();
    port1.close();
    expect(replies[1]).toMatchObject({ ok: false, error: { code: 'BROKER_REFUSED' } });
    expect(replies[2]).toMatchObject({ ok: false, error: { code: 'BROKER_REFUSED' } });
    expect(replies[3]).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
    expect(h.refusals.map((r) => r.type)).toEqual(['readFileStrict', 'writeFile']);
    expect(fs.existsSync(ws.at('secret/w.txt'))).toBe(false);
  });

  // Past the main thread's slice a request waits for its turn (runtime/main-thread-turn.ts): its call may end meanwhile.
  it('refuses a request whose call ended while it waited for its turn, and serves one whose call is still in flight', async () => {
    const h = setUp();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const ending = h.calls.enter('write_file', { path: 'late.txt', content: 'late' }, UNBOUNDED);
    const staying = h.calls.enter('read_file', { path: 'a.txt' }, UNBOUNDED);
    // Other work took its turn and used the slice up.
    expect(mainThreadTurn()).toBeUndefined();
    const until = performance.now() + 8;
    while (performance.now() < until) {
      // synchronous work
    }
    const late = h.send(request(ending.callId, { type: 'writeFile', path: 'late.txt', content: 'late' }));
    const kept = h.send(request(staying.callId, { type: 'readFileStrict', path: 'a.txt' }));
    h.calls.leave(ending.callId);
    expect(await late).toMatchObject({ ok: false, error: { code: 'BROKER_REFUSED', message: expect.stringContaining('ended while its writeFile request waited') } });
    expect(await kept).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
    expect(fs.existsSync(ws.at('late.txt'))).toBe(false);
  });

  it('refuses a request whose deadline passed while it waited for its turn, with TIMEOUT', async () => {
    const h = setUp();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const soon: CallContext = { signal: new AbortController().signal, deadline: performance.now() + 4, limit: 'toolTimeoutMs=4' };
    const call = h.calls.enter('write_file', { path: 'late2.txt', content: 'x' }, soon);
    expect(mainThreadTurn()).toBeUndefined();
    const until = performance.now() + 8;
    while (performance.now() < until) {
      // the slice and the deadline both pass
    }
    expect(await h.send(request(call.callId, { type: 'writeFile', path: 'late2.txt', content: 'x' }))).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(fs.existsSync(ws.at('late2.txt'))).toBe(false);
  });
});
