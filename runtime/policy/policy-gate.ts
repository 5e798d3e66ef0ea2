import { APPROVAL_RULES } from '../../src/audit/index.js';
import { deepFreeze } from '../../src/deep-freeze.js';
import { toPlainError, type ErrorCode } from '../../src/errors.js';
import { admit, rulesMention, subjectKey, type AdmitInput, type Admitted, type ApprovalMemory, type ApprovalOption, type PermissionLayers, type PermissionSpec } from '../../src/policy/index.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import { remainingMs, untilDeadline, type CallContext } from '../calls/call-context.js';

/** How many tool names the gate's caches hold per session (rule mentions) and in all (default outcomes). */
const MAX_CACHED_TOOLS = 1024;

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

/**
 * The host's approver: answers an `ask` with one of the request's `options`. Throwing, or answering anything else
 * (allow-always where it is not offered included), is a denial.
 */
export type Approver = (request: ApprovalRequest) => ApprovalOption | Promise<ApprovalOption>;

/** The per-session facts the gate needs. */
export interface GateSession {
  id: string;
  user: string | undefined;
  permissions: readonly PermissionSpec[];
  memory: ApprovalMemory;
}

/**
 * A gate's outcome, as data: the decision and rule for the audit log, and for a refusal its code and the sentence
 * the caller gets. A call the approver allowed has the answer as its rule ({@link APPROVAL_RULES}), not the rule that
 * asked. `admitted` is what {@link admit} returned.
 */
export interface GateOutcome {
  decision: 'allow' | 'deny';
  rule: string;
  reason: string;
  /** Set exactly when the decision is `deny`. */
  code?: ErrorCode;
  admitted: Admitted;
}

/** What a call (or ctx request, or bash command) is admitted from, besides the session's rules and memory. */
export type GateRequest = Omit<AdmitInput, 'layers' | 'remembered'>;

/**
 * Applies {@link admit} with the host rules and the session's rule layers, asking the host's approver for `ask` and
 * remembering `allow-always` answers for the session (never for dangerous removals). No approver: ask means deny.
 */
export class PolicyGate {
  readonly #host: PermissionSpec | undefined;
  readonly #approve: Approver | undefined;
  /** Per session's rule layers (fixed for its life), whether they mention each tool asked about. */
  readonly #mentions = new WeakMap<readonly PermissionSpec[], Map<string, boolean>>();
  /**
   * admit()'s outcome for a call no rule looks at (no subject described, nothing refused before the rules, the tool
   * exposed): it depends on the tool's name alone, so it is computed once per name. A hot path: most calls are these.
   */
  readonly #byDefault = new Map<string, GateOutcome>();

  constructor(host: PermissionSpec | undefined, approve: Approver | undefined) {
    this.#host = host;
    this.#approve = approve;
  }

  /** Whether any rule layer mentions the tool (or `'*'`); see {@link rulesMention}. */
  hasRulesFor(session: GateSession, tool: string): boolean {
    let known = this.#mentions.get(session.permissions);
    if (known === undefined) this.#mentions.set(session.permissions, (known = new Map()));
    let mentioned = known.get(tool);
    if (mentioned !== undefined) return mentioned;
    mentioned = rulesMention(this.#layers(session), tool);
    // A caller may ask about any name: the cache is bounded, past that each answer is computed.
    if (known.size < MAX_CACHED_TOOLS) known.set(tool, mentioned);
    return mentioned;
  }

  /** Decides a call, asking the approver when admit() says so; the wait for an answer ends with the call's context. */
  async enforce(session: GateSession, request: GateRequest, args: Record<string, unknown>, context: CallContext): Promise<GateOutcome> {
    const byDefault = request.subject === undefined && request.refused === undefined && request.exposure?.visible !== false;
    const cached = byDefault ? this.#byDefault.get(request.tool) : undefined;
    if (cached !== undefined) return cached;
    const admitted = admit({ ...request, layers: this.#layers(session), remembered: session.memory });
    const { subject, rule, reason } = admitted;
    const refuse = (code: ErrorCode, why: string): GateOutcome => ({ decision: 'deny', rule, reason: why, code, admitted });
    if (admitted.decision === 'allow') {
      const allowed: GateOutcome = { decision: 'allow', rule: admitted.gate === 'remembered' ? APPROVAL_RULES.remembered : rule, reason, admitted };
      if (byDefault && admitted.gate === 'default' && this.#byDefault.size < MAX_CACHED_TOOLS) this.#byDefault.set(request.tool, deepFreeze(allowed));
      return allowed;
    }
    if (admitted.decision === 'deny') return refuse(admitted.code ?? 'POLICY_DENIED', reason);
    if (!this.#approve) return refuse('APPROVAL_DENIED', `${reason}, and no approver is configured (createRuntime({ approve }))`);
    const wait = untilDeadline(context, `the approval of ${subject.tool}`);
    const approval: ApprovalRequest = {
      signal: wait.signal,
      sessionId: session.id,
      user: session.user,
      tool: subject.tool,
      args,
      reason,
      dangerous: subject.dangerous === true,
      options: admitted.options,
      callTimeLeftMs: Number.isFinite(context.deadline) ? remainingMs(context) : Infinity,
      ...(subject.commands ? { commands: subject.commands } : {}),
      ...(subject.paths ? { paths: subject.paths } : {}),
    };
    let answer: unknown;
    try {
      answer = await answerOrAbort(this.#approve, approval);
    } catch (error) {
      // Not the approver's answer when the signal aborted: the call's deadline, an abort or the session's close ended the wait.
      if (wait.signal.aborted) {
        const plain = toPlainError(wait.signal.reason);
        return refuse(plain.code, `${reason}; ${plain.message}`);
      }
      // An approver that says why it denies throws APPROVAL_DENIED with the why; anything else is its failure.
      const plain = toPlainError(error);
      return refuse('APPROVAL_DENIED', `${reason}; ${plain.code === 'APPROVAL_DENIED' ? plain.message : `the approver failed: ${plain.message}`}`);
    } finally {
      wait.dispose();
    }
    // Only an offered choice counts: allow-always where only allow and deny are offered (a dangerous removal) is no
    // allow at all, and is refused at once, naming the answer.
    if (typeof answer !== 'string' || !(admitted.options as readonly string[]).includes(answer)) {
      return refuse('APPROVAL_DENIED', `${reason}; the approver answered ${JSON.stringify(answer)}, which is not one of ${admitted.options.join(', ')}`);
    }
    if (answer === 'allow-always') {
      session.memory.remember(subjectKey(subject));
      return { decision: 'allow', rule: APPROVAL_RULES.always, reason, admitted };
    }
    if (answer === 'allow') return { decision: 'allow', rule: APPROVAL_RULES.once, reason, admitted };
    return refuse('APPROVAL_DENIED', `${reason}; the approver answered ${JSON.stringify(answer)}`);
  }

  #layers(session: GateSession): PermissionLayers {
    return { host: this.#host, session: session.permissions };
  }
}

/**
 * The tool result of a refusal, made at the edge from the gate's data. A refusal by a rule or the approver carries
 * its rule as `structuredContent.rule`; one by the capability or a check before any rule carries none.
 */
export function refusalResult(outcome: GateOutcome): ToolResult {
  const byRules = outcome.admitted.gate !== 'capability' && outcome.admitted.gate !== 'refused';
  return errorResult(outcome.code ?? 'POLICY_DENIED', outcome.reason, byRules ? { rule: outcome.rule } : undefined);
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
