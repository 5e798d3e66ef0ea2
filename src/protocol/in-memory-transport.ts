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
 * never shares an object with the sender, a post never runs the other end's code synchronously, and what arrives
 * before the other end listens waits for it.
 * @example const { a, b } = createLinkedPair(); b.listen((m) => console.log(m)); a.post({ hello: 1 });
 */
export function createLinkedPair(): LinkedPair {
  const listeners: [((data: unknown) => void)[], ((data: unknown) => void)[]] = [[], []];
  // What arrived for an end before it listened: kept for its first listener, as a MessagePort keeps it.
  const waiting: [unknown[], unknown[]] = [[], []];
  let closed = false;
  const deliver = (to: 0 | 1, copy: unknown): void => {
    if (closed) return;
    if (listeners[to].length === 0) waiting[to].push(copy);
    else for (const listener of listeners[to]) listener(copy);
  };
  const end = (to: 0 | 1, own: 0 | 1): Transport => ({
    post: (message) => {
      if (closed) return;
      const copy = structuredClone(message);
      setImmediate(() => deliver(to, copy));
    },
    listen: (listener) => {
      listeners[own].push(listener);
      const held = waiting[own].splice(0);
      if (held.length > 0) setImmediate(() => held.forEach((copy) => deliver(own, copy)));
    },
  });
  return { a: end(1, 0), b: end(0, 1), close: () => void (closed = true) };
}
