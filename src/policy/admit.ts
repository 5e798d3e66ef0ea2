import { PATH_GUARD_CODES, pathGuardRule } from '../audit/audit-outcome.js';
import { didYouMean } from '../did-you-mean.js';
import type { ErrorCode } from '../errors.js';
import { isMcpToolName } from '../mcp/tool-name.js';
import type { ApprovalMemory } from './approval-memory.js';
import { decide, type PermissionLayers } from './decide.js';
import type { ApprovalOption, Decision, PermissionSpec, PolicySubject, VerdictGate } from './types.js';

/**
 * Who decided an admission: the capability (a tool it does not expose is refused, closed by default), a check that
 * refused before any rule could look (the path guard, the shell's static check, invalid arguments), or a rule gate.
 */
export type AdmitGate = VerdictGate | 'capability' | 'refused';

/** A refusal found before any rule could look: the path guard, the shell's static check, invalid arguments. */
export interface PreRuleRefusal {
  /** The refusal's stable code, e.g. `BLOCKED_PATH`. */
  code: ErrorCode;
  /** What was refused and why, for the caller. */
  reason: string;
  /** The audit rule, e.g. `path:BLOCKED_PATH` or `static check` (see {@link preRuleRule}). */
  rule: string;
}

/** Everything one admission is decided from: plain data, gathered by the caller at the edge. */
export interface AdmitInput {
  /** The tool's full name (`mcp__id__tool` for MCP tools). */
  tool: string;
  /**
   * What the rules look at. Omitted when the caller skipped describing it because no rule layer mentions the tool
   * (see {@link rulesMention}): a tool other than bash is then allowed by the built-in default, rule `default`.
   */
  subject?: PolicySubject | undefined;
  /** Whether the session's capability exposes the tool, and what it does expose; omitted: the caller checked. */
  exposure?: { visible: boolean; allowed: readonly string[] } | undefined;
  /** A refusal that came before any rule; it decides whatever the rules say. */
  refused?: PreRuleRefusal | undefined;
  /** The host rules and the session's rule layers. */
  layers: PermissionLayers;
  /** The session's remembered `allow-always` answers. */
  remembered?: ApprovalMemory | undefined;
}

/** What {@link admit} decided: data only, turned into a tool result at the edge and recorded as-is by the audit. */
export interface Admitted {
  decision: Decision;
  /** The rule that decided, e.g. `session rule bash.deny 'git push*'`, `capability`, `path:BLOCKED_PATH`, `default`. */
  rule: string;
  /** A sentence for the caller naming the tool, the decision and the rule (and the item that decided, if any). */
  reason: string;
  /** The subject the rules saw (the bare tool when none was described). */
  subject: PolicySubject;
  /** The stable code of a refusal: set exactly when the decision is `deny`. */
  code?: ErrorCode;
  gate: AdmitGate;
  /** The path or command that decided, when one item of several did. */
  item?: string;
  /** The answers to offer the approver when the decision is `ask`. */
  options: ApprovalOption[];
}

/**
 * The one admission of toolwarden, for tool calls, ctx requests and each bash command, in this order: a tool the
 * capability does not expose is refused (`TOOL_NOT_ALLOWED`); a refusal before any rule (guard, static check,
 * arguments) decides; otherwise {@link decide} applies every rule layer, static denies, dangerous removal, unchecked
 * findings and remembered answers. A rule's deny is `POLICY_DENIED`; `ask` is left to the approver at the edge.
 * @example admit({ tool: 'bash', subject, layers: { host: { bash: { deny: ['git push*'] } }, session: [] } }).decision // 'deny'
 */
export function admit(input: AdmitInput): Admitted {
  const { tool, exposure, refused } = input;
  const subject = input.subject ?? { tool, kind: kindOfName(tool) };
  if (exposure !== undefined && !exposure.visible) {
    const allowed = exposure.allowed.join(', ') || 'none';
    const reason = `tool '${tool}' is not in this session's capability (allowed: ${allowed})${didYouMean(tool, exposure.allowed)}`;
    return { decision: 'deny', rule: 'capability', reason, subject, code: 'TOOL_NOT_ALLOWED', gate: 'capability', options: [] };
  }
  if (refused !== undefined) return { decision: 'deny', rule: refused.rule, reason: refused.reason, subject, code: refused.code, gate: 'refused', options: [] };
  if (input.subject === undefined && tool !== 'bash') {
    return { decision: 'allow', rule: 'default', reason: `${tool} allowed by default (no rule mentions it)`, subject, gate: 'default', options: [] };
  }
  const verdict = decide(input.layers, subject, input.remembered);
  const where = verdict.item ? ` (for '${verdict.item}')` : '';
  const verb = verdict.decision === 'deny' ? 'denied by' : verdict.decision === 'ask' ? 'asks by' : 'allowed by';
  return {
    decision: verdict.decision,
    rule: verdict.rule,
    reason: `${tool} ${verb} ${verdict.rule}${where}`,
    subject,
    ...(verdict.decision === 'deny' ? { code: 'POLICY_DENIED' as const } : {}),
    gate: verdict.gate,
    ...(verdict.item === undefined ? {} : { item: verdict.item }),
    options: verdict.options,
  };
}

/**
 * Whether any rule layer mentions the tool (or `'*'`). When none does, a call of a tool other than bash is allowed
 * by the built-in default, so the caller may skip describing its subject (the broker's guard still checks each path).
 */
export function rulesMention(layers: PermissionLayers, tool: string): boolean {
  const mentions = (spec: PermissionSpec | undefined): boolean => spec !== undefined && (Object.hasOwn(spec, tool) || Object.hasOwn(spec, '*'));
  return mentions(layers.host) || layers.session.some(mentions);
}

/** The audit rule of a refusal before any rule: `path:<code>` for the path guard's, else `admission:<code>`. */
export function preRuleRule(code: string): string {
  return (PATH_GUARD_CODES as readonly string[]).includes(code) ? pathGuardRule(code) : `admission:${code}`;
}

function kindOfName(tool: string): PolicySubject['kind'] {
  return tool === 'bash' ? 'bash' : isMcpToolName(tool) ? 'mcp' : 'other';
}
