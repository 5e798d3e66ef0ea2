import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, FrameError, MAX_FRAME_BYTES } from '../../src/protocol/zygote-frames.js';

// The runtime decodes a zygote's stream, which sandboxed commands can write to: nothing may make it buffer more than
// one bounded frame, and every malformed frame is an error instead of a guess.
const u32 = (value: number): Buffer => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value, 0);
  return bytes;
};

const ATTACKS: [name: string, bytes: Buffer][] = [
  ['a length of 4 GiB - 1', u32(0xffffffff)],
  ['a length one byte over the bound', u32(MAX_FRAME_BYTES + 1)],
  ['a length too short for the header length', u32(2)],
  ['a header length past its frame', Buffer.concat([u32(8), u32(100), Buffer.from('{}xx')])],
  ['a header that is not JSON', Buffer.concat([u32(7), u32(3), Buffer.from('{no')])],
];

describe('zygote frame decoding', () => {
  it.each(ATTACKS)('refuses %s as soon as its prefix arrives, keeping nothing', (_name, bytes) => {
    const decoder = new FrameDecoder();
    expect(() => decoder.push(bytes)).toThrow(FrameError);
    // Broken for good: later bytes are not taken as a fresh start.
    expect(() => decoder.push(encodeFrame({ type: 'ready' }))).toThrow(FrameError);
  });

  it('refuses an oversized frame from its 4-byte length, before any of its payload is sent', () => {
    const decoder = new FrameDecoder();
    expect(() => decoder.push(u32(MAX_FRAME_BYTES + 1).subarray(0, 4))).toThrow(/over the 1048576-byte bound/);
  });

  it('takes a frame of exactly the bound (near miss)', () => {
    const data = new Uint8Array(MAX_FRAME_BYTES - 4 - Buffer.byteLength('{"id":1}'));
    const frame = encodeFrame({ id: 1 }, data);
    expect(frame.length).toBe(4 + MAX_FRAME_BYTES);
    const [decoded] = new FrameDecoder().push(frame);
    expect(decoded?.header).toEqual({ id: 1 });
    expect(decoded?.data.length).toBe(data.length);
  });

  it('will not encode a frame over the bound', () => {
    expect(() => encodeFrame({ id: 1 }, new Uint8Array(MAX_FRAME_BYTES))).toThrow(FrameError);
  });

  it('reassembles frames split at every byte and splits frames sharing a chunk', () => {
    const stream = Buffer.concat([encodeFrame({ type: 'ready' }), encodeFrame({ type: 'output', id: 3 }, Buffer.from('hé')), encodeFrame({ type: 'closed', id: 3 })]);
    const decoder = new FrameDecoder();
    const frames = [...stream].flatMap((byte) => decoder.push(Uint8Array.of(byte)));
    expect(frames.map((f) => f.header)).toEqual([{ type: 'ready' }, { type: 'output', id: 3 }, { type: 'closed', id: 3 }]);
    expect(Buffer.from(frames[1]?.data ?? []).toString('utf8')).toBe('hé');
    expect(new FrameDecoder().push(stream)).toHaveLength(3);
  });
});
