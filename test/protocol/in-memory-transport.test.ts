import { describe, expect, it } from 'vitest';
import { createLinkedPair } from '../../src/protocol/in-memory-transport.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createLinkedPair', () => {
  it('delivers each message to the other end only, later, in order, as a copy', async () => {
    const { a, b } = createLinkedPair();
    const atA: unknown[] = [];
    const atB: unknown[] = [];
    a.listen((data) => atA.push(data));
    b.listen((data) => atB.push(data));
    const sent = { n: 1, nested: { list: [1, 2] } };
    a.post(sent);
    a.post({ n: 2 });
    b.post('back');
    // Never synchronously: the other end's code does not run inside post.
    expect(atB).toEqual([]);
    sent.nested.list.push(3);
    await turn();
    await turn();
    expect(atB).toEqual([{ n: 1, nested: { list: [1, 2] } }, { n: 2 }]);
    expect(atB[0]).not.toBe(sent);
    expect(atA).toEqual(['back']);
  });

  it('refuses what structured clone refuses, as a port would', () => {
    const { a } = createLinkedPair();
    expect(() => a.post({ run: () => 1 })).toThrow();
  });

  it('drops everything after close, even what was already posted', async () => {
    const { a, b, close } = createLinkedPair();
    const atB: unknown[] = [];
    b.listen((data) => atB.push(data));
    a.post('in flight');
    close();
    a.post('after');
    await turn();
    await turn();
    expect(atB).toEqual([]);
  });
});
