import { ToolwardenError } from '../errors.js';
import { DECISIONS, isDecision } from './types.js';
import type { Decision, PermissionSpec, ToolRule } from './types.js';
import { checkRuleTools, type KnownTools } from './rule-tools.js';

const LIST_KEYS = ['allow', 'ask', 'deny'] as const;
const RULE_KEYS: ReadonlySet<string> = new Set([...LIST_KEYS, 'default']);
const CHOICES = DECISIONS.map((d) => `'${d}'`).join(', ');

/**
 * Checks a `permissions` option and returns a validated copy (later changes to the input do not leak in).
 * @param where - the option's name in messages, e.g. `createRuntime.permissions`.
 * @param known - the tools rules may name; given, a rule for any other tool is refused (see `checkRuleTools`)
 * @throws ToolwardenError `INVALID_OPTIONS` naming the bad key and what it must be.
 * @example validatePermissionSpec({ bash: { deny: ['git push*'] }, '*': 'ask' }, 'openSession.permissions')
 */
export function validatePermissionSpec(spec: unknown, where: string, known?: KnownTools): PermissionSpec {
  if (!isPlainObject(spec)) {
    throw invalid(`${where} must be an object mapping tool names (or '*') to a rule, got ${describe(spec)}`);
  }
  const entries: [string, ToolRule][] = [];
  for (const [tool, rule] of Object.entries(spec)) {
    if (tool.trim() === '' || tool.includes('\0')) {
      throw invalid(`${where} has an empty or NUL-containing tool name ${JSON.stringify(tool)}; keys are tool names or '*'`);
    }
    entries.push([tool, validateToolRule(rule, `${where}.${tool}`)]);
  }
  const validated: PermissionSpec = Object.fromEntries(entries);
  if (known !== undefined) checkRuleTools(validated, where, known);
  return validated;
}

function validateToolRule(rule: unknown, where: string): ToolRule {
  if (typeof rule === 'string') {
    if (isDecision(rule)) return rule;
    throw invalid(`${where} must be one of ${CHOICES} or { allow?, ask?, deny?, default? }, got ${describe(rule)}`);
  }
  if (!isPlainObject(rule)) {
    throw invalid(`${where} must be one of ${CHOICES} or { allow?, ask?, deny?, default? }, got ${describe(rule)}`);
  }
  const unknownKey = Object.keys(rule).find((key) => !RULE_KEYS.has(key));
  if (unknownKey !== undefined) {
    throw invalid(`${where}.${unknownKey} is not a rule key; use allow, ask, deny or default`);
  }
  const result: { allow?: string[]; ask?: string[]; deny?: string[]; default?: Decision } = {};
  for (const key of LIST_KEYS) {
    const list = rule[key];
    if (list !== undefined) result[key] = validatePatterns(list, `${where}.${key}`);
  }
  const fallback = rule['default'];
  if (fallback !== undefined) {
    if (!isDecision(fallback)) throw invalid(`${where}.default must be one of ${CHOICES}, got ${describe(fallback)}`);
    result.default = fallback;
  }
  return result;
}

function validatePatterns(list: unknown, where: string): string[] {
  if (!Array.isArray(list)) throw invalid(`${where} must be an array of pattern strings, got ${describe(list)}`);
  return list.map((pattern: unknown, index) => {
    if (typeof pattern !== 'string' || pattern.trim() === '' || pattern.includes('\0')) {
      throw invalid(`${where}[${index}] must be a non-empty pattern string without NUL bytes, got ${describe(pattern)}`);
    }
    return pattern;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}
