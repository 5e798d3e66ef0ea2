import { toPlainError } from '../../src/errors.js';
import type { BrokerApi } from '../../src/protocol.js';
import type { BrokerFor } from './broker.js';
import { BROKER_PROTOCOL_VERSION, brokerRequestArgs, parseBrokerRequest, TOOL_RESULT_REQUESTS, type BrokerRequest, type BrokerResponse } from '../../src/protocol/broker.js';
import { errorResult } from '../../src/tool-result.js';
import { guardRefusalOf } from '../../src/audit/index.js';
import { timeLeftMs } from '../calls/call-context.js';
import { mainThreadTurn } from '../calls/main-thread-turn.js';
import { refusalOfGrant } from './call-grants.js';
import type { CallGrant, CallTracker } from './call-tracker.js';

/** A broker request the server refused, for the audit log. */
export interface BrokerRefusal {
  /** The request type as sent (may be unknown), or undefined when the message had none. */
  type: string | undefined;
  callId: string | undefined;
  /** The tool of the call the id names, when it names one of this session's in-flight calls. */
  tool: string | undefined;
  reason: string;
}

/** Serves one message from a worker or tool process; `reply` posts the answer back on the same channel. */
export type BrokerServer = (data: unknown, reply: (response: BrokerResponse) => void) => void;

/**
 * The main thread's end of the broker protocol for one session. Each message is checked in one place
 * (parseBrokerRequest), must name an in-flight call of this session, and must lie within that call's admission
 * (refusalOfGrant) before the broker sees it; anything else is answered BROKER_REFUSED and reported to `refused`. An
 * admitted request runs on the broker of its call's context (signal and deadline), and counts as that call's activity.
 */
export function createBrokerServer(brokerFor: BrokerFor, calls: CallTracker, refused: (refusal: BrokerRefusal) => void): BrokerServer {
  return (data, reply) => {
    const parsed = parseBrokerRequest(data);
    let reason: string;
    let tool: string | undefined;
    if (parsed.ok) {
      const { request } = parsed;
      const grant = calls.grant(request.callId);
      tool = grant?.tool;
      const outside = grant === undefined ? `call id ${request.callId} names no call in flight in this session` : refusalOfGrant(grant, request);
      if (outside === undefined && grant !== undefined) {
        void serveInTurn(brokerFor, calls, grant, request).then(
          (value) => reply({ v: BROKER_PROTOCOL_VERSION, type: 'reply', seq: request.seq, reply: value }),
          (error: unknown) => reply({ v: BROKER_PROTOCOL_VERSION, type: 'reply', seq: request.seq, reply: failure(request.type, toPlainError(error)) }),
        );
        return;
      }
      reason = String(outside);
    } else {
      reason = parsed.reason;
    }
    const { seq, callId, type } = parsed.ok ? parsed.request : parsed;
    refused({ type: sentType(data) ?? type, callId, tool, reason });
    if (seq !== undefined) reply({ v: BROKER_PROTOCOL_VERSION, type: 'reply', seq, reply: failure(type, { code: 'BROKER_REFUSED', message: reason }) });
  };
}

/** The type a message says it has, cut short: the audit records it, and the sender chose it. */
function sentType(data: unknown): string | undefined {
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.slice(0, 64) : undefined;
}

/** A failure in the reply shape the request type expects. */
function failure(type: string | undefined, error: { code: string; message: string }): unknown {
  if (type !== undefined && TOOL_RESULT_REQUESTS.has(type as BrokerRequest['type'])) return errorResult(error.code as 'BROKER_REFUSED', error.message);
  return { ok: false, error };
}

/**
 * Serves an admitted request at its main-thread turn (see mainThreadTurn); a call that ended while its request
 * waited has no grant left, so the request is refused as any request of a finished call is.
 */
async function serveInTurn(brokerFor: BrokerFor, calls: CallTracker, grant: CallGrant, request: BrokerRequest): Promise<unknown> {
  const turn = mainThreadTurn();
  if (turn) {
    grant.activity.pending += 1;
    try {
      await turn;
    } finally {
      grant.activity.pending -= 1;
    }
    if (calls.grant(request.callId) !== grant) return failure(request.type, { code: 'BROKER_REFUSED', message: `call ${request.callId} ended while its ${request.type} request waited` });
    // Its deadline may have passed meanwhile: what was asked in time is not served past it (TIMEOUT), nor after
    // an abort.
    try {
      timeLeftMs(grant.context, `${request.type} for ${grant.tool}`);
    } catch (error) {
      return failure(request.type, toPlainError(error));
    }
  }
  return serve(brokerFor, grant, request);
}

/** Runs an admitted request in its call's context, counted as the call's broker activity while it runs. */
async function serve(brokerFor: BrokerFor, grant: CallGrant, request: BrokerRequest): Promise<unknown> {
  const { activity } = grant;
  activity.pending += 1;
  try {
    const reply = await dispatch(brokerFor(grant.context), request);
    if (!grant.hostTool && grant.guardRule === undefined) grant.guardRule = guardRuleOf(reply);
    return reply;
  } finally {
    activity.pending -= 1;
    activity.answeredAt = performance.now();
  }
}

/** The `path:<code>` rule of a reply the broker's path guard refused, else undefined. */
function guardRuleOf(reply: unknown): string | undefined {
  if (typeof reply !== 'object' || reply === null || (reply as { ok?: unknown }).ok !== false) return undefined;
  return guardRefusalOf((reply as { error: { code: string } }).error.code)?.guardRule;
}

/** Calls the broker method a checked request names, with its fields as the method's arguments. */
function dispatch(broker: BrokerApi, request: BrokerRequest): Promise<unknown> {
  const method = broker[request.type] as (...args: unknown[]) => Promise<unknown>;
  return method.apply(broker, brokerRequestArgs(request));
}
