import { toPlainError, type ErrorCode } from '../../src/errors.js';
import { guardRefusalOf } from '../../src/audit/index.js';
import { preRuleRule } from '../../src/policy/index.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { builtinTool } from '../../src/tools/builtin-schemas.js';
import { refusalResult } from '../policy/policy-gate.js';
import type { SessionServices } from '../session/session-services.js';
import type { CallContext } from './call-context.js';
import { planCall, type CallPlan } from './call-plan.js';

/** The session's verdict on a call before it reaches its tool: returned by {@link admitCall}, never changed after. */
export interface Admission extends CallPlan {
  decision: 'allow' | 'deny';
  /** The rule that decided, for the audit log. */
  rule?: string;
  /** The sentence admit() gave for the decision. */
  reason?: string;
  /** Set when the call may not run. */
  refusal?: ToolResult;
}

/**
 * Decides a call with the session's permissions (visibility, argument validation, the path guard and the rules, all
 * by one admit(); bash is admitted per command where it runs, once parsed) and plans an allowed one. A refusal's tool
 * result is made here, from admit()'s data; a plan that fails (a prefetched read the guard refuses) is a refusal too.
 */
export async function admitCall(services: SessionServices, name: string, args: Record<string, unknown>, context: CallContext): Promise<Admission> {
  const { permissions } = services;
  if (builtinTool(name)?.subject === 'commands' && permissions.exposes(name)) return { decision: 'allow', ...(await planCall(services, name, args, context)) };
  const outcome = await permissions.admitCall(name, args, context);
  if (outcome.decision === 'deny') return { decision: 'deny', rule: outcome.rule, reason: outcome.reason, refusal: refusalResult(outcome) };
  try {
    const plan = await planCall(services, name, args, context);
    const read = plan.prefetched?.readFileStrict?.reply;
    // A prefetched read that failed is the call's answer: the guard's refusal is a refusal here, anything else (a
    // missing file) the tool's failure; either way the worker has nothing to do.
    if (read?.ok === false) {
      const { code, message } = read.error;
      const failure = errorResult(code as ErrorCode, message);
      const guard = guardRefusalOf(code);
      if (guard !== undefined) return { decision: 'deny', rule: guard.guardRule, reason: message, refusal: failure };
      return { decision: 'allow', rule: outcome.rule, reason: outcome.reason, direct: () => Promise.resolve({ result: failure }) };
    }
    return { decision: 'allow', rule: outcome.rule, reason: outcome.reason, ...plan };
  } catch (error) {
    const plain = toPlainError(error);
    return { decision: 'deny', rule: preRuleRule(plain.code), reason: plain.message, refusal: errorResult(plain.code, plain.message) };
  }
}
