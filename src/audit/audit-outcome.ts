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

// Refusals that carry no rule of their own: the decision came from the rules, the approver or the capability.
const REFUSAL_CODES: readonly string[] = ['POLICY_DENIED', 'APPROVAL_DENIED', 'TOOL_NOT_ALLOWED'];

/**
 * The decision and rule an audit event records for a finished call. A refusal (by the admission, a rule, the
 * approver, the capability, the static check or the path guard) is `deny`; a call that was allowed and failed
 * otherwise is `error`. The rule is the admission's. A call the broker decides itself (bash: no admission rule)
 * takes the rule its result names: `rule` for a refusal, `admittedBy` for the rule or approval that let it run.
 * A path-guard refusal is `path:<code>`. A tool's own result never overrides an admission rule, so host tool
 * output cannot rewrite the log.
 */
export function auditOutcome(admission: { decision: 'allow' | 'deny'; rule?: string | undefined }, result: ToolResult): { decision: Decision | 'error'; rule?: string } {
  const named = (key: string): string | undefined => (typeof result.structuredContent?.[key] === 'string' ? result.structuredContent[key] : undefined);
  const refusedBy = named('rule');
  const outcome = (decision: Decision | 'error', rule: string | undefined): { decision: Decision | 'error'; rule?: string } => (rule === undefined ? { decision } : { decision, rule });
  if (admission.decision === 'deny') return outcome('deny', admission.rule ?? refusedBy);
  const admitted = admission.rule ?? named('admittedBy');
  if (!result.isError) return outcome('allow', admitted);
  if (admission.rule === undefined && refusedBy !== undefined) return outcome('deny', refusedBy);
  if (result.code !== undefined && (PATH_GUARD_CODES as readonly string[]).includes(result.code)) return outcome('deny', pathGuardRule(result.code));
  if (refusedBy !== undefined || (result.code !== undefined && REFUSAL_CODES.includes(result.code))) return outcome('deny', admission.rule ?? refusedBy);
  return outcome('error', admitted);
}
