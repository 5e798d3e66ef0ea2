import type { AuditEvent } from '../../../src/audit/audit-event.js';
import { isRefusal, type Authority, type AuthorityRefusal } from '../../../src/net/authority.js';
import { describe } from './proxy-wire.js';

// What the egress proxy records: one event per connection or request, naming the authority it asked for.

export type Via = 'connect' | 'http' | 'socks' | 'https-intercepted';

/** One connection or request as the audit names it: the authority it asked for (as written when it did not parse). */
export interface Attempt {
  readonly via: Via;
  readonly host: string;
  readonly port: number;
  readonly started: number;
  readonly commands: readonly string[];
}

/** What the audit records of an attempt beyond its authority. */
export interface AttemptDetail {
  rule?: string;
  code?: string;
  message?: string;
  address?: string;
  bytesOut?: number;
  bytesIn?: number;
}

/** Who the events are for: the session and its user. */
export interface AuditScope {
  readonly sessionId: string;
  readonly user?: string;
  readonly audit: (event: AuditEvent) => void;
}

// How much of an unparsable authority the audit keeps.
const AUDITED_HOST_CHARS = 256;

/** An attempt to audit: the authority when it parsed, else what the client wrote. */
export function newAttempt(via: Via, authority: Authority | AuthorityRefusal, written: string, writtenPort: number, commands: readonly string[]): Attempt {
  const { host, port } = isRefusal(authority) ? { host: written.slice(0, AUDITED_HOST_CHARS), port: writtenPort } : authority;
  return { via, host, port, started: Date.now(), commands };
}

/** Emits the event of an attempt. */
export function auditAttempt(scope: AuditScope, attempt: Attempt, decision: 'allow' | 'deny' | 'error', detail: AttemptDetail): void {
  const { sessionId, user } = scope;
  scope.audit({
    time: new Date(attempt.started).toISOString(),
    sessionId,
    ...(user === undefined ? {} : { user }),
    tool: 'egress',
    args: {
      via: attempt.via,
      host: attempt.host,
      port: attempt.port,
      ...(detail.address === undefined ? {} : { address: detail.address }),
      commands: [...attempt.commands],
      bytesOut: detail.bytesOut ?? 0,
      bytesIn: detail.bytesIn ?? 0,
    },
    decision,
    ...(detail.rule === undefined ? {} : { rule: detail.rule }),
    ...(detail.code === undefined ? {} : { code: detail.code }),
    durationMs: Date.now() - attempt.started,
    result: detail.message ?? `${attempt.via} ${attempt.host}:${attempt.port}`,
  });
}

/** The detail of an attempt refused or failed by `error`: NET_DENIED is a deny by `net`, anything else an error. */
export function refusalDetail(error: unknown): { decision: 'deny' | 'error'; detail: AttemptDetail } {
  const { code, message } = describe(error);
  return code === 'NET_DENIED' ? { decision: 'deny', detail: { code, message, rule: 'net' } } : { decision: 'error', detail: { code, message } };
}
