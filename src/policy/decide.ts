import { subjectKey } from './approval-memory.js';
import type { ApprovalMemory } from './approval-memory.js';
import { evaluateRules } from './evaluate-rules.js';
import { commandVerdictOf, describeStaticVerdict } from './shell-subject.js';
import { pickStrictest } from './types.js';
import type { ApprovalOption, PermissionSpec, PolicySubject, RuleVerdict } from './types.js';

/** The rule layers of a session: the runtime's host rules and the session chain, every layer a gate. */
export interface PermissionLayers {
  /** Rules from `createRuntime({ permissions })`. */
  host?: PermissionSpec | undefined;
  /** Rules of the session and of every parent it was attenuated from; all of them must allow. */
  session: readonly PermissionSpec[];
}

/** The final verdict for a call, with the answers to offer the approver when it is `ask`. */
export type Decided = RuleVerdict & { options: ApprovalOption[] };

const OPTIONS: readonly ApprovalOption[] = ['allow', 'deny', 'allow-always'];
const ONCE_OPTIONS: readonly ApprovalOption[] = ['allow', 'deny'];

/**
 * Decides a call: every layer is a gate and the strictest answer wins; a static `deny` (of the call or of one
 * command) always denies; dangerous calls ask at least and never offer `allow-always`; so do calls with
 * `unchecked` findings, which no rule saw; a remembered `allow-always` turns an `ask` for the same subject
 * into `allow`.
 * @example decide({ host: { bash: { deny: ['git push*'] } }, session: [] }, subject, memory)
 */
export function decide(layers: PermissionLayers, subject: PolicySubject, remembered?: ApprovalMemory): Decided {
  const verdict = applyOverrides(combineGates(layers, subject), subject, remembered);
  return { ...verdict, options: [...(subject.dangerous === true || isUnchecked(subject) ? ONCE_OPTIONS : OPTIONS)] };
}

/**
 * The layers of an attenuated session: all of the parent's plus the child's own. A layer can only make
 * answers stricter, so a child never gains what its parent lacked. A parent without rules is kept as an
 * empty layer, i.e. the built-in defaults, so a child's `allow` cannot lift a default `ask`.
 */
export function narrowPermissions(parent: readonly PermissionSpec[], child: PermissionSpec | undefined): PermissionSpec[] {
  if (child === undefined) return [...parent];
  return [...(parent.length === 0 ? [{}] : parent), child];
}

function combineGates(layers: PermissionLayers, subject: PolicySubject): RuleVerdict {
  const verdicts: RuleVerdict[] = [];
  if (layers.host !== undefined) verdicts.push(evaluateRules(layers.host, subject, 'host'));
  layers.session.forEach((spec, index) => {
    const verdict = evaluateRules(spec, subject, 'session');
    const label = layers.session.length > 1 ? `session layer ${index + 1}` : 'session';
    verdicts.push(verdict.gate === 'session' ? { ...verdict, rule: verdict.rule.replace(/^session/, label) } : verdict);
  });
  // On a tie, name an explicit rule rather than the built-in default: it says more about why.
  const ranked = [...verdicts.filter((v) => v.gate !== 'default'), ...verdicts.filter((v) => v.gate === 'default')];
  // No layer at all: the built-in defaults, judged command by command like an empty layer.
  return pickStrictest(ranked) ?? evaluateRules(undefined, subject, 'session');
}

function applyOverrides(verdict: RuleVerdict, subject: PolicySubject, remembered: ApprovalMemory | undefined): RuleVerdict {
  const denied = staticDeny(subject);
  if (denied !== undefined && verdict.decision !== 'deny') {
    return { ...denied, decision: 'deny', rule: `${denied.rule} (rules said '${verdict.decision}' by ${verdict.rule})`, gate: 'static' };
  }
  if (subject.dangerous === true) {
    if (verdict.decision !== 'allow') return verdict;
    const culprit = subject.commands?.find((c) => commandVerdictOf(subject, c)?.dangerous === true);
    const why = culprit === undefined ? '' : ` (${commandVerdictOf(subject, culprit)?.reasons?.join('; ') ?? ''})`;
    const item = culprit ?? verdict.item;
    return { decision: 'ask', rule: `dangerous removal always asks${why} (rules allow by ${verdict.rule})`, gate: 'dangerous', ...(item === undefined ? {} : { item }) };
  }
  if (isUnchecked(subject)) {
    if (verdict.decision !== 'allow') return verdict;
    return { decision: 'ask', rule: `static check asks for the whole call (${subject.unchecked?.join('; ')}) (rules allow by ${verdict.rule})`, gate: 'static' };
  }
  if (verdict.decision === 'ask' && remembered?.has(subjectKey(subject)) === true) {
    return { ...verdict, decision: 'allow', rule: `remembered 'allow-always' answer (would ask by ${verdict.rule})`, gate: 'remembered' };
  }
  return verdict;
}

// The first refused command's static deny (named), else the call's: a refused path denies whatever the rules say.
function staticDeny(subject: PolicySubject): { rule: string; item?: string } | undefined {
  const command = subject.commands?.find((c) => commandVerdictOf(subject, c)?.verdict === 'deny');
  const own = command === undefined ? undefined : commandVerdictOf(subject, command);
  if (command !== undefined && own !== undefined) return { rule: describeStaticVerdict(own), item: command };
  return subject.staticVerdict === 'deny' ? { rule: "static check 'deny'" } : undefined;
}

function isUnchecked(subject: PolicySubject): boolean {
  return subject.unchecked !== undefined && subject.unchecked.length > 0;
}
