import { describe, expect, it } from 'vitest';
import { IpcChannels } from '../../src/protocol/ipc-channels.js';

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
  it('carries two channels over one link, each message to its own channel only', async () => {
    const [runtime, child] = linkedPair();
    const seen: string[] = [];
    runtime.transport('broker').listen((data) => seen.push(`runtime broker ${String(data)}`));
    runtime.transport('host').listen((data) => seen.push(`runtime host ${String(data)}`));
    child.transport('host').listen((data) => seen.push(`child host ${String(data)}`));
    child.transport('broker').post('read');
    child.transport('host').post('result');
    runtime.transport('host').post('call');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.sort()).toEqual(['child host call', 'runtime broker read', 'runtime host result']);
  });

  it('does not route what is not a channel envelope', () => {
    const [runtime] = linkedPair();
    expect([{ type: 'ready' }, { type: 'channel', channel: 'other', data: {} }, null, 'x'].map((message) => runtime.deliver(message))).toEqual([false, false, false, false]);
  });
});
