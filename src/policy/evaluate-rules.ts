import { compilePathPattern, compileWordPattern } from './match-pattern.js';
import { commandVerdictOf, describeStaticVerdict } from './shell-subject.js';
import { pickStrictest } from './types.js';
import type { Decision, PermissionSpec, PolicySubject, RuleVerdict, ToolRule } from './types.js';

/** The rule layer a verdict comes from. */
export type RuleGate = 'host' | 'session';

// Strictest first, so the first matching list is the answer: order inside a list never matters.
const LISTS = ['deny', 'ask', 'allow'] as const;

/**
 * Judges one call against one layer of rules: each path or simple command gets the strictest matching
 * pattern, else the tool's `default`, else the `'*'` entry, else the built-in default (for a bash command, its
 * own static verdict); the call gets the strictest of its items.
 * @example evaluateRules({ bash: { allow: ['npm test'] } }, { tool: 'bash', kind: 'bash', commands: ['npm test', 'rm -rf x'], staticVerdict: 'allow' }, 'session')
 */
export function evaluateRules(spec: PermissionSpec | undefined, subject: PolicySubject, gate: RuleGate): RuleVerdict {
  const items = evaluateItems(spec, subject, gate);
  // On a tie, name an explicit rule rather than a built-in default: it says more about why.
  const verdict = pickStrictest([...items.filter((v) => v.gate !== 'default'), ...items.filter((v) => v.gate === 'default')]);
  // evaluateItems always yields at least one verdict; the fallback keeps the type honest.
  return verdict ?? builtInDefault(subject);
}

/** The per-item verdicts behind {@link evaluateRules}, in the order of the subject's paths or commands. */
export function evaluateItems(spec: PermissionSpec | undefined, subject: PolicySubject, gate: RuleGate): RuleVerdict[] {
  const toolRule = spec === undefined ? undefined : ownRule(spec, subject.tool);
  if (typeof toolRule === 'string') {
    return [{ decision: toolRule, rule: `${gate} rule ${subject.tool}: '${toolRule}'`, gate }];
  }
  const fallback = (item?: string): RuleVerdict => fallbackVerdict(spec, subject, gate, toolRule, item);
  const items = itemsOf(subject);
  if (items === undefined) return [matchItem(toolRule, subject.tool, subject.tool, gate) ?? fallback()];
  if (items.length === 0) return [fallback()];
  const match = subject.kind === 'file' ? compilePathPattern : compileWordPattern;
  return items.map((item) => ({ ...(matchItem(toolRule, item, subject.tool, gate, match) ?? fallback(item)), item }));
}

/**
 * The verdict when no rule applies: file and other tools allow, bash follows the static check, for `item`
 * that command's own verdict when the subject carries one, else the call's.
 */
export function builtInDefault(subject: PolicySubject, item?: string): RuleVerdict {
  const own = item === undefined ? undefined : commandVerdictOf(subject, item);
  if (own !== undefined) return { decision: own.verdict, rule: `default for ${subject.tool}: ${describeStaticVerdict(own)}`, gate: 'default' };
  if (subject.staticVerdict !== undefined) {
    return { decision: subject.staticVerdict, rule: `default for ${subject.tool}: static check '${subject.staticVerdict}'`, gate: 'default' };
  }
  const decision: Decision = subject.kind === 'bash' ? 'ask' : 'allow';
  const why = subject.kind === 'bash' ? 'no static check result' : `${subject.kind} tools`;
  return { decision, rule: `default for ${subject.tool}: '${decision}' (${why})`, gate: 'default' };
}

function itemsOf(subject: PolicySubject): string[] | undefined {
  if (subject.kind === 'file') return subject.paths ?? [];
  if (subject.kind === 'bash') return subject.commands ?? [];
  return undefined;
}

function matchItem(
  rule: Exclude<ToolRule, string> | undefined,
  item: string,
  owner: string,
  gate: RuleGate,
  match = compileWordPattern,
): RuleVerdict | undefined {
  if (rule === undefined) return undefined;
  for (const list of LISTS) {
    const pattern = rule[list]?.find((p) => match(p)(item));
    if (pattern !== undefined) return { decision: list, rule: `${gate} rule ${owner}.${list} '${pattern}'`, gate };
  }
  return undefined;
}

function fallbackVerdict(
  spec: PermissionSpec | undefined,
  subject: PolicySubject,
  gate: RuleGate,
  toolRule: Exclude<ToolRule, string> | undefined,
  item: string | undefined,
): RuleVerdict {
  if (toolRule?.default !== undefined) {
    return { decision: toolRule.default, rule: `${gate} rule ${subject.tool}.default '${toolRule.default}'`, gate };
  }
  const star = spec === undefined ? undefined : ownRule(spec, '*');
  if (typeof star === 'string') return { decision: star, rule: `${gate} rule *: '${star}'`, gate };
  const starMatch = matchItem(star, subject.tool, '*', gate);
  if (starMatch !== undefined) return starMatch;
  if (star?.default !== undefined) return { decision: star.default, rule: `${gate} rule *.default '${star.default}'`, gate };
  return builtInDefault(subject, item);
}

// Own properties only: a tool named `constructor` must not pick up Object.prototype.constructor.
function ownRule(spec: PermissionSpec, key: string): ToolRule | undefined {
  return Object.hasOwn(spec, key) ? spec[key] : undefined;
}
