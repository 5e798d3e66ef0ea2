import { describe, expect, it } from 'vitest';
import { ApprovalMemory, decide, explain, subjectKey } from '../../src/policy/index.js';
import type { ApprovalOption, Decision, PermissionLayers, PolicySubject, VerdictGate } from '../../src/policy/index.js';
import { checked } from './helpers.js';

const TRAP = checked({ "trap 'rm -f x' EXIT": 'ask', 'echo ready': 'allow' });
const SAFE_EVIL = checked({ 'echo ok': 'allow', 'evil-tool --x': 'ask' });
const REFUSED = checked({ 'echo ok': 'allow', 'cat /etc/passwd': 'deny' });
const DANGEROUS = checked({ 'ls': 'allow', 'rm -rf .': 'ask' }, { dangerous: 'rm -rf .' });
const UNPARSED = checked({ 'cat a.txt': 'allow' }, { unchecked: ['the command does not parse cleanly: missing "word"'] });
const ALL: ApprovalOption[] = ['allow', 'deny', 'allow-always'];
const ONCE: ApprovalOption[] = ['allow', 'deny'];

// [name, layers, subject, decision, gate, deciding command (null: none), text the rule contains, options]
type Case = [string, PermissionLayers, PolicySubject, Decision, VerdictGate, string | null, string, ApprovalOption[]];

const CASES: Case[] = [
  ['trap: an allow rule for the trap lifts its static ask; echo stays allowed by default', { session: [{ bash: { allow: ['trap *'] } }] }, TRAP, 'allow', 'session', "trap 'rm -f x' EXIT", "session rule bash.allow 'trap *'", ALL],
  ['trap: without rules, the trap asks and is named with its reason', { session: [] }, TRAP, 'ask', 'default', "trap 'rm -f x' EXIT", "static check 'ask' (why trap 'rm -f x' EXIT)", ALL],
  ['trap: an allow rule for echo does not lift the trap', { session: [{ bash: { allow: ['echo *'] } }] }, TRAP, 'ask', 'default', "trap 'rm -f x' EXIT", 'why trap', ALL],
  ['trap: both gates must allow it', { host: { bash: { allow: ['trap *'] } }, session: [{}] }, TRAP, 'ask', 'default', "trap 'rm -f x' EXIT", 'why trap', ALL],
  ['trap: allowed in both gates', { host: { bash: { allow: ['trap *'] } }, session: [{ bash: { allow: ['trap *'] } }] }, TRAP, 'allow', 'host', "trap 'rm -f x' EXIT", "host rule bash.allow 'trap *'", ALL],
  ['safe && evil: evil asks by its own static verdict', { session: [{ bash: { allow: ['echo *'] } }] }, SAFE_EVIL, 'ask', 'default', 'evil-tool --x', 'why evil-tool', ALL],
  ['safe && evil: a deny rule on evil denies', { session: [{ bash: { allow: ['echo *'], deny: ['evil-tool*'] } }] }, SAFE_EVIL, 'deny', 'session', 'evil-tool --x', "bash.deny 'evil-tool*'", ALL],
  ['an allow rule for an unknown command; the rest stays allowed by default', { session: [{ bash: { allow: ['evil-tool *'] } }] }, SAFE_EVIL, 'allow', 'session', 'evil-tool --x', "session rule bash.allow 'evil-tool *'", ALL],
  ['an ask rule on a statically allowed command asks', { session: [{ bash: { ask: ['echo *'], allow: ['evil-tool *'] } }] }, SAFE_EVIL, 'ask', 'session', 'echo ok', "bash.ask 'echo *'", ALL],
  ['a refused path under an allow rule for it still denies', { session: [{ bash: { allow: ['cat *', 'echo *'] } }] }, REFUSED, 'deny', 'static', 'cat /etc/passwd', "static check 'deny' (why cat /etc/passwd) (rules said 'allow'", ALL],
  ['a refused path under an allow shorthand still denies', { host: { bash: 'allow' }, session: [] }, REFUSED, 'deny', 'static', 'cat /etc/passwd', "rules said 'allow' by host rule bash: 'allow'", ALL],
  ['a refused path without rules denies', { session: [] }, REFUSED, 'deny', 'default', 'cat /etc/passwd', "default for bash: static check 'deny'", ALL],
  ['dangerous removal under an allow rule asks, naming the removal, without allow-always', { session: [{ bash: { allow: ['rm *', 'ls'] } }] }, DANGEROUS, 'ask', 'dangerous', 'rm -rf .', 'dangerous removal always asks (why rm -rf .)', ONCE],
  ['dangerous removal under an allow shorthand asks', { host: { bash: 'allow' }, session: [] }, DANGEROUS, 'ask', 'dangerous', 'rm -rf .', "rules allow by host rule bash: 'allow'", ONCE],
  ['dangerous removal without rules asks by its static verdict', { session: [] }, DANGEROUS, 'ask', 'default', 'rm -rf .', 'why rm -rf .', ONCE],
  ['a parse failure asks for the whole call without rules', { session: [] }, UNPARSED, 'ask', 'static', null, 'static check asks for the whole call (the command does not parse cleanly', ONCE],
  ['a parse failure asks under an allow rule for every command', { session: [{ bash: { allow: ['cat *'] } }] }, UNPARSED, 'ask', 'static', null, "rules allow by session rule bash.allow 'cat *'", ONCE],
  ['a parse failure under a deny rule denies', { session: [{ bash: { deny: ['cat *'] } }] }, UNPARSED, 'deny', 'session', 'cat a.txt', "bash.deny 'cat *'", ONCE],
  ['a command without its own verdict falls back to the call verdict', { session: [] }, { tool: 'bash', kind: 'bash', commands: ['ls', 'odd'], staticVerdict: 'ask', commandVerdicts: { ls: { verdict: 'allow' } } }, 'ask', 'default', 'odd', "default for bash: static check 'ask'", ALL],
];

describe('decide with per-command static verdicts', () => {
  it.each(CASES)('%s', (_name, layers, subject, decision, gate, item, rule, options) => {
    const verdict = decide(layers, subject);
    expect(verdict, JSON.stringify(verdict)).toMatchObject({ decision, gate, options });
    expect(verdict.item).toBe(item ?? undefined);
    expect(verdict.rule).toContain(rule);
  });

  it('never applies a remembered answer to a call with unchecked parts', () => {
    const memory = new ApprovalMemory();
    memory.remember(subjectKey(UNPARSED));
    expect(decide({ session: [{ bash: 'ask' }] }, UNPARSED, memory)).toMatchObject({ decision: 'ask', gate: 'session' });
    expect(decide({ session: [] }, UNPARSED, memory)).toMatchObject({ decision: 'ask', gate: 'static' });
  });

  it('still applies a remembered answer to a per-command ask', () => {
    const memory = new ApprovalMemory();
    memory.remember(subjectKey(TRAP));
    expect(decide({ session: [] }, TRAP, memory)).toMatchObject({ decision: 'allow', gate: 'remembered' });
  });

  it('finds a command named like an Object.prototype key only when given', () => {
    const subject: PolicySubject = { tool: 'bash', kind: 'bash', commands: ['constructor'], staticVerdict: 'ask', commandVerdicts: {} };
    expect(decide({ session: [] }, subject)).toMatchObject({ decision: 'ask', rule: "default for bash: static check 'ask'" });
  });
});

describe('explain with per-command static verdicts', () => {
  it('shows each command with its own default and the rule that decides', () => {
    const e = explain({ session: { bash: { allow: ['trap *'] } } }, 'bash', { command: "trap 'rm -f x' EXIT; echo ready" }, { subject: TRAP });
    expect(e).toMatchObject({ decision: 'allow', gate: 'session' });
    expect(e.text).toContain("    command 'trap 'rm -f x' EXIT': allow by session rule bash.allow 'trap *'");
    expect(e.text).toContain("    command 'echo ready': allow by default for bash: static check 'allow'");
  });

  it('lists the built-in default of each command when there are no layers', () => {
    const e = explain({}, 'bash', { command: "trap 'rm -f x' EXIT; echo ready" }, { subject: TRAP });
    expect(e.text.split('\n')).toEqual([
      `bash {"command":"trap 'rm -f x' EXIT; echo ready"} -> ask`,
      "  decided by: default for bash: static check 'ask' (why trap 'rm -f x' EXIT) (command 'trap 'rm -f x' EXIT')",
      '  no rule layers: built-in defaults apply',
      "    command 'trap 'rm -f x' EXIT': ask by default for bash: static check 'ask' (why trap 'rm -f x' EXIT)",
      "    command 'echo ready': allow by default for bash: static check 'allow'",
      '  approver options: allow, deny, allow-always',
    ]);
  });

  it('says what no rule saw', () => {
    const e = explain({ session: { bash: 'allow' } }, 'bash', { command: 'cat a.txt &&' }, { subject: UNPARSED });
    expect(e.decision).toBe('ask');
    expect(e.text).toContain('  unchecked by any rule: the command does not parse cleanly: missing "word" (asks at least, never remembered)');
    expect(e.text).toContain('  approver options: allow, deny');
  });
});
