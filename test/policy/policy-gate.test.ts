import { describe, expect, it } from 'vitest';
import { ApprovalMemory, type PermissionSpec } from '../../src/policy/index.js';
import { PolicyGate, type GateSession } from '../../runtime/policy/policy-gate.js';
import type { CallContext } from '../../runtime/calls/call-context.js';

const context: CallContext = { signal: new AbortController().signal, deadline: Number.POSITIVE_INFINITY, limit: 'none' };
const session = (permissions: PermissionSpec[]): GateSession => ({ id: 's', user: undefined, permissions, memory: new ApprovalMemory() });
const subject = (paths: string[]) => ({ tool: 'write_file', kind: 'file' as const, paths });
const visible = { visible: true, allowed: ['read_file', 'write_file', 'noop'] };

// The gate remembers what depends on a tool's name alone (the default outcome, whether a session's rules mention it);
// these check that nothing a rule, a refusal or the exposure decides is ever answered from that memory.
describe('the policy gate answers repeated calls the same as the first', () => {
  it('a tool no rule mentions is allowed by default, every time, with a frozen shared outcome', async () => {
    const gate = new PolicyGate(undefined, undefined);
    const first = await gate.enforce(session([]), { tool: 'noop', exposure: visible }, {}, context);
    const again = await gate.enforce(session([]), { tool: 'noop', exposure: visible }, {}, context);
    expect(first).toMatchObject({ decision: 'allow', rule: 'default' });
    expect(again).toEqual(first);
    expect(Object.isFrozen(again) && Object.isFrozen(again.admitted) && Object.isFrozen(again.admitted.subject)).toBe(true);
  });

  it.each([
    ['an unexposed tool', { tool: 'noop', exposure: { visible: false, allowed: [] } }, 'TOOL_NOT_ALLOWED'],
    ['a refusal before the rules', { tool: 'noop', exposure: visible, refused: { code: 'BLOCKED_PATH' as const, reason: 'blocked', rule: 'path:BLOCKED_PATH' } }, 'BLOCKED_PATH'],
  ])('after a default allow of the same tool, %s is still refused', async (_what, request, code) => {
    const gate = new PolicyGate(undefined, undefined);
    await gate.enforce(session([]), { tool: 'noop', exposure: visible }, {}, context);
    expect(await gate.enforce(session([]), request, {}, context)).toMatchObject({ decision: 'deny', code });
  });

  it("a subject described for one session's rules is decided by them, after other sessions' default allows", async () => {
    const gate = new PolicyGate(undefined, undefined);
    await gate.enforce(session([]), { tool: 'write_file', exposure: visible }, {}, context);
    const strict = session([{ write_file: { deny: ['secret/**'] } }]);
    expect(gate.hasRulesFor(strict, 'write_file')).toBe(true);
    expect(gate.hasRulesFor(session([]), 'write_file')).toBe(false);
    expect(await gate.enforce(strict, { tool: 'write_file', exposure: visible, subject: subject(['secret/a']) }, {}, context)).toMatchObject({ decision: 'deny', code: 'POLICY_DENIED' });
    expect(await gate.enforce(strict, { tool: 'write_file', exposure: visible, subject: subject(['src/a']) }, {}, context)).toMatchObject({ decision: 'allow' });
  });

  it('host rules count for every session', () => {
    const gate = new PolicyGate({ noop: 'ask' }, undefined);
    expect(gate.hasRulesFor(session([]), 'noop')).toBe(true);
    expect(gate.hasRulesFor(session([]), 'read_file')).toBe(false);
  });

  it('asking about many names stays correct past the cache bound', () => {
    const gate = new PolicyGate(undefined, undefined);
    const one = session([{ tool_1500: 'deny' }]);
    for (let i = 0; i < 2000; i++) expect(gate.hasRulesFor(one, `tool_${i}`)).toBe(i === 1500);
  });
});

// Issue 29 item 9: an answer outside the choices offered for the call (allow-always for a dangerous removal, where
// only allow and deny are offered) is a denial at once that names the answer and who gave it, never an allow.
describe('an approver answering outside the offered choices', () => {
  const removal = { tool: 'bash', kind: 'bash' as const, commands: ['rm -rf .'], dangerous: true };
  const ask = session([{ bash: 'ask' }]);

  it.each([
    ['allow-always where only allow and deny are offered', 'allow-always'],
    ['a word that is no answer', 'yes'],
    ['no answer at all', undefined],
  ])('%s is denied, naming the approver and its answer', async (_name, answer) => {
    const gate = new PolicyGate(undefined, () => answer as never);
    const outcome = await gate.enforce(ask, { tool: 'bash', exposure: { visible: true, allowed: ['bash'] }, subject: removal }, {}, context);
    expect(outcome).toMatchObject({ decision: 'deny', code: 'APPROVAL_DENIED' });
    expect(outcome.admitted.options).toEqual(['allow', 'deny']);
    expect(outcome.reason).toContain(`the approver answered ${JSON.stringify(answer)}, which is not one of allow, deny`);
  });

  it.each([['allow'], ['allow-always']])('near miss: %s, when offered, allows', async (answer) => {
    const gate = new PolicyGate(undefined, () => answer as never);
    const plain = { tool: 'bash', kind: 'bash' as const, commands: ['echo hi'] };
    expect(await gate.enforce(ask, { tool: 'bash', exposure: { visible: true, allowed: ['bash'] }, subject: plain }, {}, context)).toMatchObject({ decision: 'allow' });
  });
});
