import type { Decision } from '../policy/types.js';

/** One tool call, allowed or refused, as the audit sink receives and records it. */
export interface AuditEvent {
  /** ISO 8601 time the call started. */
  time: string;
  sessionId: string;
  user?: string;
  tool: string;
  /** The call's arguments; sinks redact them unless full logging is on. */
  args: unknown;
  /** What the policy decided, or `error` when an allowed call failed. */
  decision: Decision | 'error';
  /** The rule that decided, e.g. `session rule bash.deny 'git push*'`. */
  rule?: string;
  /** The error code of a refused or failed call. */
  code?: string;
  durationMs: number;
  /** The result's text; sinks summarize it unless full logging is on. */
  result?: string;
}
