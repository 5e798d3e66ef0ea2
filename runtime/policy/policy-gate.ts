import { APPROVAL_RULES } from '../../src/audit/index.js';
import { toPlainError } from '../../src/errors.js';
import { decide, subjectKey, type ApprovalMemory, type ApprovalOption, type Decision, type PermissionSpec, type PolicySubject } from '../../src/policy/index.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { remainingMs, untilDeadline, type CallContext } from '../call-context.js';

/** What the host's approver is asked for an `ask` decision. */
export interface ApprovalRequest {
  sessionId: string;
  user: string | undefined;
  tool: string;
  args: Record<string, unknown>;
  /** Simple commands (bash) the call would run. */
  commands?: string[];
  /** Workspace-relative paths (file tools) the call touches. */
  paths?: string[];
  /** Why the call asks, naming the rule. */
  reason: string;
  /** A dangerous removal: `allow-always` is not offered and would not be remembered. */
  dangerous: boolean;
  /** The answers the approver may give. */
  options: ApprovalOption[];
  /** Milliseconds left before the call's deadline when it asked (`Infinity` without one): no wait outlasts it. */
  callTimeLeftMs?: number;
  /**
   * Aborts when the answer is no longer wanted: the call's deadline passed (reason TIMEOUT), the caller aborted it
   * (ABORTED) or the session closed (SESSION_CLOSED). The call is refused with that code whatever comes later; an
   * approver showing a prompt should take it down.
   */
  signal: AbortSignal;
}

/** The host's approver: answers an `ask`. Throwing or answering anything else counts as deny. */
export type Approver = (request: ApprovalRequest) => ApprovalOption | Promise<ApprovalOption>;

/** The per-session facts the gate needs. */
export interface GateSession {
  id: string;
  user: string | undefined;
  permissions: readonly PermissionSpec[];
  memory: ApprovalMemory;
}

/**
 * A gate's outcome: the decision and rule for the audit log, and the refusal when the call may not run. A call the
 * approver allowed has the answer as its rule ({@link APPROVAL_RULES}), not the rule that asked.
 */
export interface GateOutcome {
  decision: Decision;
  rule: string;
  refusal?: ToolResult;
}

/**
 * Applies the host rules and the session's rule layers to a call, asking the host's approver for `ask` and
 * remembering `allow-always` answers for the session (never for dangerous removals). No approver: ask means deny.
 */
export class PolicyGate {
  readonly #host: PermissionSpec | undefined;
  readonly #approve: Approver | undefined;

  constructor(host: PermissionSpec | undefined, approve: Approver | undefined) {
    this.#host = host;
    this.#approve = approve;
  }

  /**
   * Whether any rule layer mentions the tool (or `'*'`). When none does, a call of a file, MCP or host tool is
   * allowed by the built-in default, and the caller may skip building its subject (bash always needs one).
   */
  hasRulesFor(session: GateSession, tool: string): boolean {
    const mentions = (spec: PermissionSpec | undefined): boolean => spec !== undefined && (Object.hasOwn(spec, tool) || Object.hasOwn(spec, '*'));
    return mentions(this.#host) || session.permissions.some(mentions);
  }

  /** Decides a call, asking the approver when the rules say so; the wait for an answer ends with the call's context. */
  async enforce(session: GateSession, subject: PolicySubject, args: Record<string, unknown>, context: CallContext): Promise<GateOutcome> {
    const verdict = decide({ host: this.#host, session: session.permissions }, subject, session.memory);
    const where = verdict.item ? ` (for '${verdict.item}')` : '';
    if (verdict.decision === 'allow') return { decision: 'allow', rule: verdict.gate === 'remembered' ? APPROVAL_RULES.remembered : verdict.rule };
    if (verdict.decision === 'deny') {
      return { decision: 'deny', rule: verdict.rule, refusal: errorResult('POLICY_DENIED', `${subject.tool} denied by ${verdict.rule}${where}`, { rule: verdict.rule }) };
    }
    const reason = `${subject.tool} asks by ${verdict.rule}${where}`;
    if (!this.#approve) {
      return { decision: 'deny', rule: verdict.rule, refusal: errorResult('APPROVAL_DENIED', `${reason}, and no approver is configured (createRuntime({ approve }))`, { rule: verdict.rule }) };
    }
    const wait = untilDeadline(context, `the approval of ${subject.tool}`);
    const request: ApprovalRequest = {
      signal: wait.signal,
      sessionId: session.id,
      user: session.user,
      tool: subject.tool,
      args,
      reason,
      dangerous: subject.dangerous === true,
      options: verdict.options,
      callTimeLeftMs: Number.isFinite(context.deadline) ? remainingMs(context) : Infinity,
      ...(subject.commands ? { commands: subject.commands } : {}),
      ...(subject.paths ? { paths: subject.paths } : {}),
    };
    let answer: unknown;
    try {
      answer = await answerOrAbort(this.#approve, request);
    } catch (error) {
      if (wait.signal.aborted) {
        // Not the approver's answer: the call's deadline, an abort or the session's close ended the wait.
        const plain = toPlainError(wait.signal.reason);
        return { decision: 'deny', rule: verdict.rule, refusal: errorResult(plain.code, `${reason}; ${plain.message}`, { rule: verdict.rule }) };
      }
      // An approver that says why it denies throws APPROVAL_DENIED with the why; anything else is its failure.
      const plain = toPlainError(error);
      const why = plain.code === 'APPROVAL_DENIED' ? plain.message : `the approver failed: ${plain.message}`;
      return { decision: 'deny', rule: verdict.rule, refusal: errorResult('APPROVAL_DENIED', `${reason}; ${why}`, { rule: verdict.rule }) };
    } finally {
      wait.dispose();
    }
    if (answer === 'allow-always' && verdict.options.includes('allow-always')) {
      session.memory.remember(subjectKey(subject));
      return { decision: 'allow', rule: APPROVAL_RULES.always };
    }
    // Offered only 'allow' and 'deny' (dangerous removal), an 'allow-always' is an allow for this call alone.
    if (answer === 'allow' || answer === 'allow-always') return { decision: 'allow', rule: APPROVAL_RULES.once };
    return { decision: 'deny', rule: verdict.rule, refusal: errorResult('APPROVAL_DENIED', `${reason}; the approver answered ${JSON.stringify(answer)}`, { rule: verdict.rule }) };
  }
}

/** The approver's answer, or a rejection as soon as the request's signal aborts (an approver may never answer). */
function answerOrAbort(approve: Approver, request: ApprovalRequest): Promise<unknown> {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => approve(request))
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}
