import { subjectKey } from './approval-memory.js';
import type { ApprovalMemory } from './approval-memory.js';
import { builtInDefault, evaluateRules } from './evaluate-rules.js';
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
const DANGEROUS_OPTIONS: readonly ApprovalOption[] = ['allow', 'deny'];

/**
 * Decides a call: every layer is a gate and the strictest answer wins; a static `deny` always denies;
 * dangerous calls ask at least and never offer `allow-always`; a remembered `allow-always` turns an `ask`
 * for the same subject into `allow`.
 * @example decide({ host: { bash: { deny: ['git push*'] } }, session: [] }, subject, memory)
 */
export function decide(layers: PermissionLayers, subject: PolicySubject, remembered?: ApprovalMemory): Decided {
  const verdict = applyOverrides(combineGates(layers, subject), subject, remembered);
  return { ...verdict, options: [...(subject.dangerous === true ? DANGEROUS_OPTIONS : OPTIONS)] };
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
  return pickStrictest(ranked) ?? builtInDefault(subject);
}

function applyOverrides(verdict: RuleVerdict, subject: PolicySubject, remembered: ApprovalMemory | undefined): RuleVerdict {
  if (subject.staticVerdict === 'deny' && verdict.decision !== 'deny') {
    return { decision: 'deny', rule: `static check 'deny' (rules said '${verdict.decision}' by ${verdict.rule})`, gate: 'static' };
  }
  if (subject.dangerous === true) {
    if (verdict.decision !== 'allow') return verdict;
    return { ...verdict, decision: 'ask', rule: `dangerous removal always asks (rules allow by ${verdict.rule})`, gate: 'dangerous' };
  }
  if (verdict.decision === 'ask' && remembered?.has(subjectKey(subject)) === true) {
    return { ...verdict, decision: 'allow', rule: `remembered 'allow-always' answer (would ask by ${verdict.rule})`, gate: 'remembered' };
  }
  return verdict;
}
