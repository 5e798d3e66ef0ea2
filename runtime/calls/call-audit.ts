import type { Capability } from '../../src/capability/capability.js';
import { auditOutcome, type AuditEvent, type WorkRefusal } from '../../src/audit/index.js';
import type { ToolResult } from '../../src/tool-result.js';

/**
 * The audit event of a finished call or ctx request: who, what, the decision {@link auditOutcome} gives from its
 * admission and its work's refusal, how long it took (the time is when it started), and the result's text. The one
 * place an audit event of a call is made.
 */
export function callAuditEvent(
  capability: Pick<Capability, 'sid' | 'user'>,
  tool: string,
  args: unknown,
  admission: { decision: 'allow' | 'deny'; rule?: string | undefined },
  result: ToolResult,
  durationMs: number,
  refusal?: WorkRefusal,
): AuditEvent {
  return {
    time: new Date(Date.now() - durationMs).toISOString(),
    sessionId: capability.sid,
    ...(capability.user === undefined ? {} : { user: capability.user }),
    tool,
    args,
    ...auditOutcome(admission, result, refusal),
    ...(result.code === undefined ? {} : { code: result.code }),
    durationMs: Math.round(durationMs * 1000) / 1000,
    result: result.content.map((c) => c.text).join('\n'),
  };
}

/** An audit event of something the session did on its own (a warning, a listing failure, a tool's log line). */
export function sessionAuditEvent(capability: Pick<Capability, 'sid' | 'user'>, tool: string, args: unknown, decision: 'allow' | 'error', result: string, code?: string): AuditEvent {
  return {
    time: new Date().toISOString(),
    sessionId: capability.sid,
    ...(capability.user === undefined ? {} : { user: capability.user }),
    tool,
    args,
    decision,
    ...(code === undefined ? {} : { code }),
    durationMs: 0,
    result,
  };
}
