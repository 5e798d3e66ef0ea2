import type { ErrorCode } from '../errors.js';
import type { Decision } from '../policy/types.js';
import type { ToolResult } from '../tool-result.js';

/**
 * The audit rule of a call the approver allowed: `approval:once` (answered `allow`, or `allow-always` where it is
 * never remembered), `approval:always` (answered `allow-always`, remembered for the session), `approval:remembered`
 * (an earlier `allow-always` of this session answered for it).
 */
export const APPROVAL_RULES = { once: 'approval:once', always: 'approval:always', remembered: 'approval:remembered' } as const;

/** Codes of the path guard's refusals: a call refused for where it reaches, not failed. */
export const PATH_GUARD_CODES: readonly ErrorCode[] = ['OUTSIDE_WORKSPACE', 'NOT_READABLE', 'BLOCKED_PATH', 'SYMLINK_LOOP'];

/** The audit rule of a path-guard refusal: `path:<code>`, e.g. `path:BLOCKED_PATH`. */
export function pathGuardRule(code: string): string {
  return `path:${code}`;
}

// Refusals by code: the capability, a rule or the approver said no where the admission could not (bash without
// 'bash' in the tools for a host tool's ctx.exec, say).
const REFUSAL_CODES: readonly string[] = ['POLICY_DENIED', 'APPROVAL_DENIED', 'TOOL_NOT_ALLOWED'];

/**
 * The decision and rule an audit event records for a finished call: what its admission (admit() and the approver)
 * decided, never what the result says, so tool output cannot rewrite the log. bash reports its commands' admission
 * itself. A call that was allowed and then refused by the broker's path guard is `deny` with `path:<code>`; one
 * allowed and failed otherwise is `error` under its admitting rule.
 */
export function auditOutcome(admission: { decision: 'allow' | 'deny'; rule?: string | undefined }, result: ToolResult): { decision: Decision | 'error'; rule?: string } {
  const outcome = (decision: Decision | 'error', rule: string | undefined): { decision: Decision | 'error'; rule?: string } => (rule === undefined ? { decision } : { decision, rule });
  if (admission.decision === 'deny') return outcome('deny', admission.rule);
  if (!result.isError) return outcome('allow', admission.rule);
  if (result.code !== undefined && (PATH_GUARD_CODES as readonly string[]).includes(result.code)) return outcome('deny', pathGuardRule(result.code));
  if (result.code !== undefined && REFUSAL_CODES.includes(result.code)) return outcome('deny', admission.rule);
  return outcome('error', admission.rule);
}
