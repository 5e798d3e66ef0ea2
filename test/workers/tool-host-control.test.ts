import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { describe, expect, it } from 'vitest';
import { createLinkedPair } from '../../src/protocol/in-memory-transport.js';
import { transportEndpoint, type ToolHostControl } from '../../src/protocol/tool-host-control.js';
import type { BoundSessionInfo } from '../../src/protocol/worker-bind.js';
import { serveToolHostControl } from '../../workers/serve-control.js';

// The control plane (comlink) a tool host serves: bound once to its session, then listing its host tools; over a
// MessagePort (a worker) and over a transport (a tool process's IPC lane, here an in-memory pair) alike.
const SESSION: BoundSessionInfo = { id: 's1', workspaceRoot: '/ws', readMaxChars: 1000, toolTimeoutMs: 1000, toolModules: [] };
const TOOLS = [{ name: 't', description: 'd', inputSchema: {} }];

function endpoints(kind: 'port' | 'transport'): { main: Comlink.Endpoint; host: Comlink.Endpoint; close(): void } {
  if (kind === 'port') {
    const { port1, port2 } = new MessageChannel();
    return { main: nodeEndpoint(port1), host: nodeEndpoint(port2), close: () => port1.close() };
  }
  const pair = createLinkedPair();
  return { main: transportEndpoint(pair.a), host: transportEndpoint(pair.b), close: () => pair.close() };
}

describe.each(['port', 'transport'] as const)('the tool host control plane over a %s', (kind) => {
  it('binds once, then lists; a listing before the bind and a second bind are refused', async () => {
    const { main, host, close } = endpoints(kind);
    const bound: BoundSessionInfo[] = [];
    serveToolHostControl(host, (session) => {
      bound.push(session);
      return async () => TOOLS;
    });
    const control = Comlink.wrap<ToolHostControl>(main);
    await expect(control.describeHostTools()).rejects.toThrow('not bound yet');
    await control.bindSession(SESSION);
    expect(bound).toEqual([SESSION]);
    expect(await control.describeHostTools()).toEqual(TOOLS);
    await expect(control.bindSession({ ...SESSION, id: 'other' })).rejects.toThrow('bound already');
    expect(bound).toHaveLength(1);
    close();
  });

  it("passes a module's load failure on as the listing's rejection, and refuses a bind without a session", async () => {
    const { main, host, close } = endpoints(kind);
    serveToolHostControl(host, () => () => Promise.reject(new Error('module failed to load')));
    const control = Comlink.wrap<ToolHostControl>(main);
    await expect(control.bindSession(null as unknown as BoundSessionInfo)).rejects.toThrow('bind takes the session');
    await control.bindSession(SESSION);
    await expect(control.describeHostTools()).rejects.toThrow('module failed to load');
    close();
  });
});
