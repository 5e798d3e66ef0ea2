import { fromPlainError } from '../src/errors.js';
import type { BrokerApi, BrokerReply } from '../src/protocol.js';
import { BROKER_PROTOCOL_VERSION, isBrokerResponse, type BrokerRequest } from '../src/protocol/broker.js';
import type { Transport } from '../src/protocol/transport.js';

/** Unwraps a broker reply, rethrowing its error with the code intact. */
export async function unwrap<T>(reply: Promise<BrokerReply<T>>): Promise<T> {
  const settled = await reply;
  if (settled.ok) return settled.value;
  throw fromPlainError(settled.error);
}

/** Distributes a request type over a union, adding the fields every request carries. */
type Body<R> = R extends BrokerRequest ? Omit<R, 'v' | 'seq' | 'callId'> : never;

/** Gives a call's tool code its view of the broker: every request carries the call's id. */
export type BrokerForCall = (callId: string) => BrokerApi;

/**
 * The worker's end of the broker protocol: one standing listener and a table of pending replies by `seq`
 * (a listener per request would cost a port listener added and removed each time).
 */
export function createBrokerClient(transport: Transport<BrokerRequest>): BrokerForCall {
  const pending = new Map<number, (reply: unknown) => void>();
  let nextSeq = 0;
  transport.listen((data) => {
    if (!isBrokerResponse(data)) return;
    const settle = pending.get(data.seq);
    if (!settle) return;
    pending.delete(data.seq);
    settle(data.reply);
  });
  const ask = <T>(callId: string, body: Body<BrokerRequest>): Promise<T> =>
    new Promise<T>((resolve) => {
      const seq = (nextSeq += 1);
      pending.set(seq, resolve as (reply: unknown) => void);
      transport.post({ v: BROKER_PROTOCOL_VERSION, seq, callId, ...body } as BrokerRequest);
    });
  return (callId) => ({
    readFile: (path) => ask(callId, { type: 'readFile', path }),
    readFileStrict: (path) => ask(callId, { type: 'readFileStrict', path }),
    writeFile: (path, content) => ask(callId, { type: 'writeFile', path, content }),
    listDir: (path) => ask(callId, path === undefined ? { type: 'listDir' } : { type: 'listDir', path }),
    glob: (pattern, path) => ask(callId, path === undefined ? { type: 'glob', pattern } : { type: 'glob', pattern, path }),
    grep: (request) => ask(callId, { type: 'grep', request }),
    applyChanges: (steps) => ask(callId, { type: 'applyChanges', steps }),
    ctxFs: (op, args) => ask(callId, { type: 'ctxFs', op, args }),
    ctxExec: (args) => ask(callId, { type: 'ctxExec', args }),
    ctxFetch: (args) => ask(callId, { type: 'ctxFetch', args }),
    ctxMcp: (tool, args) => ask(callId, { type: 'ctxMcp', tool, args }),
    log: (level, message, data) => ask(callId, data === undefined ? { type: 'log', level, message } : { type: 'log', level, message, data: plainLogData(data) }),
  });
}

/** A log value as plain data (the protocol carries nothing else): its JSON form, or its string when it has none. */
function plainLogData(data: unknown): unknown {
  try {
    const json = JSON.stringify(data);
    return json === undefined ? String(data) : (JSON.parse(json) as unknown);
  } catch {
    return String(data);
  }
}
