import { describe, expect, it } from 'vitest';
import * as Comlink from 'comlink/dist/esm/comlink.mjs';
import { isBrokerRequest } from '../../runtime/broker/broker-requests.js';
import { IpcChannels } from '../../runtime/isolation/ipc-channels.js';

/** Two IpcChannels joined like the two ends of an IPC channel (structured clone, asynchronous delivery). */
function linkedPair(): [IpcChannels, IpcChannels] {
  const ends: IpcChannels[] = [];
  const toOther = (index: number) => (envelope: unknown) => {
    const copy = structuredClone(envelope);
    setImmediate(() => ends[1 - index]!.deliver(copy));
  };
  ends.push(new IpcChannels(toOther(0)), new IpcChannels(toOther(1)));
  return [ends[0]!, ends[1]!];
}

describe('IpcChannels', () => {
  it('carries two comlink channels, one each way, over one link', async () => {
    const [runtime, child] = linkedPair();
    Comlink.expose({ readFile: async (path: string) => `broker read ${path}` }, runtime.endpoint('broker'));
    const broker = Comlink.wrap<{ readFile(path: string): Promise<string> }>(child.endpoint('broker'));
    Comlink.expose({ callTool: async (name: string) => `${name}: ${await broker.readFile('a.txt')}` }, child.endpoint('host'));
    const host = Comlink.wrap<{ callTool(name: string): Promise<string> }>(runtime.endpoint('host'));
    expect(await host.callTool('shout')).toBe('shout: broker read a.txt');
  });

  it('does not route what is not a channel envelope', () => {
    const [runtime] = linkedPair();
    expect([{ type: 'ready' }, { type: 'channel', channel: 'other', data: {} }, null, 'x'].map((message) => runtime.deliver(message))).toEqual([false, false, false, false]);
  });

  it('drops the messages the channel refuses: a SET on __proto__ pollutes nothing', async () => {
    const [runtime, child] = linkedPair();
    Comlink.expose({ readFile: async () => 'ok' }, runtime.endpoint('broker', isBrokerRequest));
    child.endpoint('broker').postMessage({ id: 'p', type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: true } });
    const broker = Comlink.wrap<{ readFile(): Promise<string> }>(child.endpoint('broker'));
    expect(await broker.readFile()).toBe('ok');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('isBrokerRequest', () => {
  const raw = (value: unknown) => ({ type: 'RAW', value });
  it.each([
    { rule: 'a call of a broker method passes', message: { id: '1', type: 'APPLY', path: ['readFile'], argumentList: [raw('a.txt')] }, passes: true },
    { rule: 'a call with no arguments passes', message: { id: '1', type: 'APPLY', path: ['log'], argumentList: [] }, passes: true },
    { rule: 'GET is refused', message: { id: '1', type: 'GET', path: ['readFile'] }, passes: false },
    { rule: 'SET is refused', message: { id: '1', type: 'SET', path: ['readFile'], value: raw(1) }, passes: false },
    { rule: 'CONSTRUCT is refused', message: { id: '1', type: 'CONSTRUCT', path: ['readFile'], argumentList: [] }, passes: false },
    { rule: 'ENDPOINT is refused', message: { id: '1', type: 'ENDPOINT', path: [] }, passes: false },
    { rule: 'a path through constructor is refused', message: { id: '1', type: 'APPLY', path: ['constructor', 'constructor'], argumentList: [raw('return process')] }, passes: false },
    { rule: 'a path into a method is refused', message: { id: '1', type: 'APPLY', path: ['readFile', 'call'], argumentList: [] }, passes: false },
    { rule: 'an inherited name is refused', message: { id: '1', type: 'APPLY', path: ['toString'], argumentList: [] }, passes: false },
    { rule: 'a proxied argument is refused', message: { id: '1', type: 'APPLY', path: ['readFile'], argumentList: [{ type: 'HANDLER', name: 'proxy', value: {} }] }, passes: false },
    { rule: 'a message without an id is refused', message: { type: 'APPLY', path: ['readFile'], argumentList: [] }, passes: false },
  ])('$rule', ({ message, passes }) => {
    expect(isBrokerRequest(message)).toBe(passes);
  });
});
