import { describe, expect, it } from 'vitest';
import * as Comlink from 'comlink/dist/esm/comlink.mjs';
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
});
