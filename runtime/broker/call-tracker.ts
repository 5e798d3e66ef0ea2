import { randomUUID } from 'node:crypto';
import type { CallContext } from '../calls/call-context.js';

/** The broker requests of one call in flight, for telling a host that waits on the broker from one that overran. */
export interface BrokerActivity {
  /** Requests of the call being served. */
  pending: number;
  /** `performance.now()` when the broker last answered one; -Infinity if never. */
  answeredAt: number;
}

/** What the main thread admitted one call for: the broker serves a request only within its call's grant. */
export interface CallGrant {
  readonly callId: string;
  readonly tool: string;
  /** The call's arguments as admitted (the built-in tools' broker requests must match them). */
  readonly args: Readonly<Record<string, unknown>>;
  /** A host-defined tool: its `ctx` requests are served, each through the rules. */
  readonly hostTool: boolean;
  /** The built-in requests already served for this call: each is served once (see refusalOfGrant). */
  readonly served: Set<string>;
  /** The call's signal and deadline: the broker's work for it runs in this context. */
  readonly context: CallContext;
  readonly activity: BrokerActivity;
  /**
   * The `path:<code>` rule of the first request of a built-in tool's call that the broker's path guard refused: the
   * audit records the call as that refusal (the broker decided it, not the tool's result).
   */
  guardRule: string | undefined;
}

/**
 * The tool calls a session has in flight, each under an unguessable id minted when the call is admitted. Every
 * broker request from the session's worker or tool process names its call's id; the id is known to this session's
 * tracker only, and dies when the call ends, so a request for another call, another session, or a finished call
 * finds no grant.
 */
export class CallTracker {
  readonly #grants = new Map<string, CallGrant>();
  readonly #isHostTool: (name: string) => boolean;

  constructor(isHostTool: (name: string) => boolean) {
    this.#isHostTool = isHostTool;
  }

  /** Records an admitted call as in flight under a fresh id, with its context; {@link leave} ends it. */
  enter(tool: string, args: Record<string, unknown>, context: CallContext): CallGrant {
    const grant: CallGrant = {
      callId: randomUUID(),
      tool,
      args,
      hostTool: this.#isHostTool(tool),
      served: new Set<string>(),
      context,
      activity: { pending: 0, answeredAt: Number.NEGATIVE_INFINITY },
      guardRule: undefined,
    };
    this.#grants.set(grant.callId, grant);
    return grant;
  }

  /** Ends a call's grant: later requests naming it are refused. Idempotent. */
  leave(callId: string): void {
    this.#grants.delete(callId);
  }

  /** The grant of an in-flight call of this session, or undefined. */
  grant(callId: string): CallGrant | undefined {
    return this.#grants.get(callId);
  }
}
