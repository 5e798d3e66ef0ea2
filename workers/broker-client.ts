import { fromPlainError } from '../src/errors.js';
import type { BrokerApi, BrokeredFile, BrokerReply, Prefetched } from '../src/protocol.js';
import { BROKER_PROTOCOL_VERSION, BROKER_REQUEST_TYPES, brokerRequestBody, isBrokerResponse, type BrokerRequest } from '../src/protocol/broker.js';
import type { Transport } from '../src/protocol/transport.js';

/** Unwraps a broker reply, rethrowing its error with the code intact. */
export async function unwrap<T>(reply: Promise<BrokerReply<T>>): Promise<T> {
  const settled = await reply;
  if (settled.ok) return settled.value;
  throw fromPlainError(settled.error);
}

/** Distributes a request type over a union, adding the fields every request carries. */
type Body<R> = R extends BrokerRequest ? Omit<R, 'v' | 'seq' | 'callId'> : never;

/**
 * Gives a call's tool code its view of the broker: every request carries the call's id, and a request the main thread
 * answered with the call (`prefetched`) is answered from that answer, once.
 */
export type BrokerForCall = (callId: string, prefetched?: Prefetched) => BrokerApi;

/**
 * The worker's end of the broker protocol: one standing listener and a table of pending replies by `seq`
 * (a listener per request would cost a port listener added and removed each time).
 */
export function createBrokerClient(transport: Transport<BrokerRequest>): BrokerForCall {
  const requests = new BrokerRequests(transport);
  return (callId, prefetched) => new CallBroker(requests, callId, prefetched?.readFileStrict) as unknown as BrokerApi;
}

/** The requests of every call of one tool host in flight, by `seq`. */
class BrokerRequests {
  readonly #pending = new Map<number, (reply: unknown) => void>();
  readonly #transport: Transport<BrokerRequest>;
  #nextSeq = 0;

  constructor(transport: Transport<BrokerRequest>) {
    this.#transport = transport;
    transport.listen((data) => {
      if (!isBrokerResponse(data)) return;
      const settle = this.#pending.get(data.seq);
      if (!settle) return;
      this.#pending.delete(data.seq);
      settle(data.reply);
    });
  }

  ask<T>(callId: string, body: Body<BrokerRequest>): Promise<T> {
    return new Promise<T>((resolve) => {
      const seq = (this.#nextSeq += 1);
      this.#pending.set(seq, resolve as (reply: unknown) => void);
      this.#transport.post({ v: BROKER_PROTOCOL_VERSION, seq, callId, ...body } as BrokerRequest);
    });
  }
}

/**
 * One call's view of the broker: every method is a request carrying the call's id, made from the protocol's one list
 * of operations (BROKER_METHOD_PARAMS) on the class's prototype, so a call costs one small object. The read the main
 * thread answered with the call is answered from that answer, once; a log's data goes as plain data.
 */
class CallBroker {
  readonly requests: BrokerRequests;
  readonly callId: string;
  prefetched: { path: string; reply: BrokerReply<BrokeredFile> } | undefined;

  constructor(requests: BrokerRequests, callId: string, prefetched: { path: string; reply: BrokerReply<BrokeredFile> } | undefined) {
    this.requests = requests;
    this.callId = callId;
    this.prefetched = prefetched;
  }
}

for (const type of BROKER_REQUEST_TYPES) {
  Object.defineProperty(CallBroker.prototype, type, {
    value(this: CallBroker, ...args: unknown[]): Promise<unknown> {
      const prefetched = this.prefetched;
      if (type === 'readFileStrict' && prefetched !== undefined && prefetched.path === args[0]) {
        this.prefetched = undefined;
        return Promise.resolve(prefetched.reply);
      }
      if (type === 'log' && args[2] !== undefined) args[2] = plainLogData(args[2]);
      return this.requests.ask(this.callId, brokerRequestBody(type, args) as Body<BrokerRequest>);
    },
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
