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

/**
 * What a call's own work decided after admit() allowed it, told by the code that decided, never read from the result:
 * the broker's path guard refused one of a built-in tool's requests (`path:<code>`), or the tool's own check refused
 * the call (an MCP server that does not list the tool, bash without 'bash' in the tools for ctx.exec).
 */
export interface WorkRefusal {
  /** The broker's path guard refused a request of the call: its `path:<code>` rule. */
  guardRule?: string;
  /** The tool's own check refused the call; the audit names admit()'s rule. */
  refused?: boolean;
}

/**
 * The decision and rule an audit event records for a finished call: what its admission (admit() and the approver)
 * decided, then what its work reported refusing; never what the result says, so tool output cannot rewrite the log.
 * bash reports its commands' admission itself. An allowed call that failed otherwise is `error` under its admitting rule.
 */
export function auditOutcome(admission: { decision: 'allow' | 'deny'; rule?: string | undefined }, result: ToolResult, work?: WorkRefusal): { decision: Decision | 'error'; rule?: string } {
  const outcome = (decision: Decision | 'error', rule: string | undefined): { decision: Decision | 'error'; rule?: string } => (rule === undefined ? { decision } : { decision, rule });
  if (admission.decision === 'deny') return outcome('deny', admission.rule);
  if (work?.guardRule !== undefined) return outcome('deny', work.guardRule);
  if (work?.refused === true) return outcome('deny', admission.rule);
  return outcome(result.isError ? 'error' : 'allow', admission.rule);
}

/** The work refusal of a failure the broker itself threw: its path guard's codes are refusals (`path:<code>`). */
export function guardRefusalOf(code: string | undefined): { guardRule: string } | undefined {
  return code !== undefined && (PATH_GUARD_CODES as readonly string[]).includes(code) ? { guardRule: pathGuardRule(code) } : undefined;
}
