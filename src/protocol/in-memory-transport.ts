import type { Transport } from './transport.js';

/** Both ends of an in-memory channel; `close` drops whatever is posted afterwards, in either direction. */
export interface LinkedPair {
  readonly a: Transport;
  readonly b: Transport;
  close(): void;
}

/**
 * Two linked transports in one thread, for running a tool host connection without a Worker or a process. Each
 * message is structured-cloned and delivered on a later turn, as a MessagePort or an IPC channel would: the receiver
 * never shares an object with the sender, and a post never runs the other end's code synchronously.
 * @example const { a, b } = createLinkedPair(); b.listen((m) => console.log(m)); a.post({ hello: 1 });
 */
export function createLinkedPair(): LinkedPair {
  const listeners: [((data: unknown) => void)[], ((data: unknown) => void)[]] = [[], []];
  let closed = false;
  const end = (to: 0 | 1, from: 0 | 1): Transport => ({
    post: (message) => {
      if (closed) return;
      const copy = structuredClone(message);
      setImmediate(() => {
        if (closed) return;
        for (const listener of listeners[to]) listener(copy);
      });
    },
    listen: (listener) => void listeners[from].push(listener),
  });
  return { a: end(1, 0), b: end(0, 1), close: () => void (closed = true) };
}
