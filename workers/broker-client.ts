import { fromPlainError } from '../src/errors.js';
import type { BrokerApi, BrokeredFile, BrokerReply, ChangeStep, CtxFsOp, GrepArgs, Prefetched } from '../src/protocol.js';
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
  return (callId, prefetched) => new CallBroker(requests, callId, prefetched?.readFileStrict);
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

/** One call's view of the broker: every request carries the call's id (a class: nothing is made per call but it). */
class CallBroker implements BrokerApi {
  readonly #requests: BrokerRequests;
  readonly #callId: string;
  /** The read the main thread answered with the call, until the tool asks for it. */
  #prefetched: { path: string; reply: BrokerReply<BrokeredFile> } | undefined;

  constructor(requests: BrokerRequests, callId: string, prefetched: { path: string; reply: BrokerReply<BrokeredFile> } | undefined) {
    this.#requests = requests;
    this.#callId = callId;
    this.#prefetched = prefetched;
  }

  readFile(path: string): ReturnType<BrokerApi['readFile']> {
    return this.#requests.ask(this.#callId, { type: 'readFile', path });
  }
  readFileStrict(path: string): ReturnType<BrokerApi['readFileStrict']> {
    const prefetched = this.#prefetched;
    if (prefetched !== undefined && prefetched.path === path) {
      this.#prefetched = undefined;
      return Promise.resolve(prefetched.reply);
    }
    return this.#requests.ask(this.#callId, { type: 'readFileStrict', path });
  }
  writeFile(path: string, content: string): ReturnType<BrokerApi['writeFile']> {
    return this.#requests.ask(this.#callId, { type: 'writeFile', path, content });
  }
  listDir(path: string | undefined): ReturnType<BrokerApi['listDir']> {
    return this.#requests.ask(this.#callId, path === undefined ? { type: 'listDir' } : { type: 'listDir', path });
  }
  glob(pattern: string, path: string | undefined): ReturnType<BrokerApi['glob']> {
    return this.#requests.ask(this.#callId, path === undefined ? { type: 'glob', pattern } : { type: 'glob', pattern, path });
  }
  grep(request: GrepArgs): ReturnType<BrokerApi['grep']> {
    return this.#requests.ask(this.#callId, { type: 'grep', request });
  }
  applyChanges(steps: ChangeStep[]): ReturnType<BrokerApi['applyChanges']> {
    return this.#requests.ask(this.#callId, { type: 'applyChanges', steps });
  }
  ctxFs(op: CtxFsOp, args: Record<string, unknown>): ReturnType<BrokerApi['ctxFs']> {
    return this.#requests.ask(this.#callId, { type: 'ctxFs', op, args });
  }
  ctxExec(args: Record<string, unknown>): ReturnType<BrokerApi['ctxExec']> {
    return this.#requests.ask(this.#callId, { type: 'ctxExec', args });
  }
  ctxFetch(args: Record<string, unknown>): ReturnType<BrokerApi['ctxFetch']> {
    return this.#requests.ask(this.#callId, { type: 'ctxFetch', args });
  }
  ctxMcp(tool: string, args: Record<string, unknown>): ReturnType<BrokerApi['ctxMcp']> {
    return this.#requests.ask(this.#callId, { type: 'ctxMcp', tool, args });
  }
  log(level: 'info' | 'warn' | 'error', message: string, data?: unknown): Promise<void> {
    return this.#requests.ask(this.#callId, data === undefined ? { type: 'log', level, message } : { type: 'log', level, message, data: plainLogData(data) });
  }
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
