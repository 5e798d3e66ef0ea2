import type { AuditEvent } from '../../../src/audit/audit-event.js';

/** An audit event as the dashboard streams it: numbered in arrival order. */
export type StreamedAudit = AuditEvent & { readonly seq: number };

/**
 * The last `capacity` audit events (already redacted by the audit sink, as every non-`full` target is), and the
 * number of calls each session made. Older events are dropped first; counts of closed sessions are forgotten.
 */
export class AuditRing {
  readonly #capacity: number;
  readonly #events: StreamedAudit[] = [];
  readonly #calls = new Map<string, number>();
  #seq = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Keeps one event and counts it as a call of its session; returns it numbered. */
  push(event: AuditEvent): StreamedAudit {
    const streamed = { ...event, seq: (this.#seq += 1) };
    this.#events.push(streamed);
    if (this.#events.length > this.#capacity) this.#events.shift();
    this.#calls.set(event.sessionId, (this.#calls.get(event.sessionId) ?? 0) + 1);
    return streamed;
  }

  /** The kept events, oldest first. */
  list(): StreamedAudit[] {
    return [...this.#events];
  }

  /** Audit events (calls, refusals) recorded for a session. */
  callsOf(sessionId: string): number {
    return this.#calls.get(sessionId) ?? 0;
  }

  /** Forgets the counts of sessions not in `open`. */
  retain(open: ReadonlySet<string>): void {
    for (const id of this.#calls.keys()) if (!open.has(id)) this.#calls.delete(id);
  }
}
