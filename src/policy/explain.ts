import type { ErrorCode } from '../errors.js';
import { admit, type AdmitGate, type AdmitInput, type PreRuleRefusal } from './admit.js';
import type { ApprovalMemory } from './approval-memory.js';
import { describeSubject } from './describe-subject.js';
import { evaluateItems, evaluateRules } from './evaluate-rules.js';
import type { ApprovalOption, Decision, PermissionSpec, PolicySubject, RuleVerdict } from './types.js';

/** The rules to explain against: host rules and the session's (one spec, or an attenuation chain). */
export interface ExplainSpec {
  host?: PermissionSpec | undefined;
  session?: PermissionSpec | readonly PermissionSpec[] | undefined;
}

/** Extra facts about the call that only the broker knows; they override what is derived from the args. */
export interface ExplainFacts {
  /**
   * Overrides of the derived subject: canonical paths, parsed simple commands, static verdicts (of the call and
   * of each command, e.g. from `describeShellCheck`), dangerous, unchecked findings.
   */
  subject?: Partial<Omit<PolicySubject, 'tool'>>;
  /** The session's remembered answers, if any. */
  remembered?: ApprovalMemory;
  /** Whether the session's capability exposes the tool (omitted: it does), as a session checks first. */
  exposure?: AdmitInput['exposure'];
  /** A refusal the path guard or the static check gave before any rule (e.g. from `toolwarden explain --workspace`). */
  refused?: PreRuleRefusal;
}

/** How one layer judged the call, item by item. */
export interface LayerExplanation {
  /** `host`, `session`, or `session layer N` in a chain. */
  layer: string;
  verdict: RuleVerdict;
  items: RuleVerdict[];
}

/** What a call would get and why: the final verdict, each layer's view, and a readable summary. */
export interface Explanation {
  tool: string;
  subject: PolicySubject;
  decision: Decision;
  rule: string;
  /** The sentence a refusal or an approval request would carry. */
  reason: string;
  /** The refusal's code when the decision is `deny`. */
  code?: ErrorCode;
  gate: AdmitGate;
  item?: string;
  /** The answers the approver would be offered if the call asks. */
  options: ApprovalOption[];
  layers: LayerExplanation[];
  /** A multi-line summary for `toolwarden explain`. */
  text: string;
}

/**
 * Says what a call would get and which rule decides, layer by layer and item by item: the decision is
 * {@link admit}'s, the very function a session's calls go through.
 * @example explain({ host: { bash: { deny: ['git push*'] } } }, 'bash', { command: 'git push' }).text
 */
export function explain(spec: ExplainSpec, tool: string, args: Record<string, unknown>, facts: ExplainFacts = {}): Explanation {
  const subject: PolicySubject = { ...describeSubject(tool, args), ...stripUndefined(facts.subject ?? {}), tool };
  const session = spec.session === undefined ? [] : isChain(spec.session) ? [...spec.session] : [spec.session];
  const { subject: _same, ...final } = admit({ tool, subject, layers: { host: spec.host, session }, remembered: facts.remembered, exposure: facts.exposure, refused: facts.refused });
  const layers: LayerExplanation[] = [];
  if (spec.host !== undefined) layers.push(explainLayer('host', spec.host, subject, 'host'));
  session.forEach((layerSpec, index) => {
    layers.push(explainLayer(session.length > 1 ? `session layer ${index + 1}` : 'session', layerSpec, subject, 'session'));
  });
  const explanation: Omit<Explanation, 'text'> = { tool, subject, ...final, layers };
  return { ...explanation, text: formatExplanation(explanation, args) };
}

function explainLayer(layer: string, spec: PermissionSpec, subject: PolicySubject, gate: 'host' | 'session'): LayerExplanation {
  const items = subject.kind === 'file' || subject.kind === 'bash' ? evaluateItems(spec, subject, gate) : [];
  return { layer, verdict: evaluateRules(spec, subject, gate), items: items.filter((v) => v.item !== undefined) };
}

function formatExplanation(e: Omit<Explanation, 'text'>, args: Record<string, unknown>): string {
  const noun = e.subject.kind === 'bash' ? 'command' : 'path';
  const lines = [`${e.tool} ${JSON.stringify(args)} -> ${e.decision}`, `  decided by: ${e.rule}${e.item === undefined ? '' : ` (${noun} '${e.item}')`}`];
  if (e.layers.length === 0) {
    lines.push('  no rule layers: built-in defaults apply');
    for (const item of defaultItems(e.subject)) lines.push(`    ${noun} '${item.item ?? ''}': ${item.decision} by ${item.rule}`);
  }
  for (const layer of e.layers) {
    lines.push(`  ${layer.layer}: ${layer.verdict.decision} by ${layer.verdict.rule}`);
    for (const item of layer.items) lines.push(`    ${noun} '${item.item ?? ''}': ${item.decision} by ${item.rule}`);
  }
  if (e.subject.dangerous === true) lines.push('  dangerous: always asks, never remembered');
  if (e.subject.unchecked !== undefined && e.subject.unchecked.length > 0) {
    lines.push(`  unchecked by any rule: ${e.subject.unchecked.join('; ')} (asks at least, never remembered)`);
  }
  if (e.decision === 'ask') lines.push(`  approver options: ${e.options.join(', ')}`);
  return lines.join('\n');
}

// With several commands or paths, each one's default is worth showing; with one, the decided-by line says it.
function defaultItems(subject: PolicySubject): RuleVerdict[] {
  if (subject.kind !== 'bash' && subject.kind !== 'file') return [];
  const items = evaluateItems(undefined, subject, 'session').filter((v) => v.item !== undefined);
  return items.length > 1 ? items : [];
}

function isChain(session: PermissionSpec | readonly PermissionSpec[]): session is readonly PermissionSpec[] {
  return Array.isArray(session);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
