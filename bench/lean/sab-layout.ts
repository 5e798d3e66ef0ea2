// The layout of a lean SharedArrayBuffer lane, shared by the main thread (sab-design.ts) and its worker.

/** Int32 slots at the start of a lane's buffer. */
export const SLOT = {
  /** Bumped by the main thread for each call; the worker waits on it. */
  request: 0,
  /** IDLE, CALLED or ANSWERED. */
  state: 1,
  op: 2,
  /** Bytes of the path, then of the text, at DATA_OFFSET; the worker writes its answer there in their place. */
  pathBytes: 3,
  textBytes: 4,
  answerBytes: 5,
  /** 1 when the answer did not fit the lane. */
  overflow: 6,
} as const;

/** Values of the state slot. */
export const STATE = { idle: 0, called: 1, answered: 2 } as const;

/** Where the bytes of a call and its answer start. */
export const DATA_OFFSET = 32;

/** What the worker is given: its lane's buffer and the doorbell every worker rings. */
export interface SabLaneData {
  lane: SharedArrayBuffer;
  doorbell: SharedArrayBuffer;
}

/** What Atomics.waitAsync returns: at once when the slot no longer holds the value, else a promise. */
export type WaitAsyncResult = { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };

// Atomics.waitAsync is ES2024 and in Node 20, but the project compiles against the ES2023 library.
const atomics = Atomics as typeof Atomics & { waitAsync(array: Int32Array, index: number, value: number): WaitAsyncResult };

/** Atomics.waitAsync on one Int32 slot, typed. */
export function waitAsync(array: Int32Array, index: number, value: number): WaitAsyncResult {
  return atomics.waitAsync(array, index, value);
}
