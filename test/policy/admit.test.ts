import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, ApprovalMemory, readOnlyTools, subjectKey, type Admitted, type PermissionLayers } from '../../src/policy/index.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { describeCommand, describeRequest } from '../../runtime/policy/admission-request.js';
import type { GateRequest } from '../../runtime/policy/policy-gate.js';
import { buildCapability } from '../../runtime/session/session-options.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// One table for every source of an admission decision. Each row builds its input the way the runtime does, through
// the real path guard and the real shell check over a real workspace, then asks the one admit().
let home: TempTree;
let paths: SessionPaths;

beforeAll(() => {
  home = makeTempTree('tw-admit', {
    'outside.txt': 'outside\n',
    'ws-evil/x.txt': 'twin\n',
    'ws/a.txt': 'a\n',
    'ws/..test': 'an ordinary name\n',
    'ws/src/b.ts': 'b\n',
    'ws/secret/k.txt': 'k\n',
    'ws/.git/hooks/.keep': '',
  });
  fs.symlinkSync(home.at('outside.txt'), home.at('ws/out-link'));
  fs.symlinkSync(home.at('ws-evil'), home.at('ws/twin-link'));
  paths = new SessionPaths(buildCapability({ workspaceRoot: home.at('ws'), tools: [] }, { sandbox: 'off', toolModules: [] }));
});
afterAll(() => home.cleanup());

const NO_RULES: PermissionLayers = { session: [] };
const TOOLS = ['read_file', 'write_file', 'bash'];

/** A tool call as the runtime admits it: exposure, then arguments and subject through the guard when a rule mentions it. */
const call = (tool: string, args: Record<string, unknown> | (() => Record<string, unknown>), layers: PermissionLayers, tools: readonly string[] = TOOLS) => (): Admitted => {
  const exposure = { visible: tools.includes(tool), allowed: tools };
  const given = typeof args === 'function' ? args() : args;
  return admit({ ...describeRequest(paths, tool, given, { exposure, validateArgs: true, rulesMention: mentions(layers, tool) }), layers });
};

/** A host tool's ctx request, standing for the built-in tool whose rules govern it (no exposure of its own). */
const ctx = (tool: string, args: Record<string, unknown>, layers: PermissionLayers) => (): Admitted =>
  admit({ ...describeRequest(paths, tool, args, { rulesMention: mentions(layers, tool) }), layers });

/** One bash command through the guard (cwd) and the static check (no OS sandbox), as bash admits each command. */
const command = (text: string, layers: PermissionLayers, options: { cwd?: string; remembered?: ApprovalMemory } = {}) => async (): Promise<Admitted> => {
  const { request } = await describeCommand(paths, text, options.cwd, home.root, false);
  return admit({ ...request, layers, remembered: options.remembered });
};

/** A memory holding an allow-always answer for exactly this command's subject. */
const rememberedFor = async (text: string): Promise<ApprovalMemory> => {
  const memory = new ApprovalMemory();
  const { request } = await describeCommand(paths, text, undefined, home.root, false);
  memory.remember(subjectKey(request.subject ?? { tool: 'bash', kind: 'bash' }));
  return memory;
};

function mentions(layers: PermissionLayers, tool: string): boolean {
  return [layers.host, ...layers.session].some((spec) => spec !== undefined && (Object.hasOwn(spec, tool) || Object.hasOwn(spec, '*')));
}

type Expected = Pick<Admitted, 'decision' | 'gate'> & { rule: string | RegExp; code?: string; item?: string; options?: string[] };
type Row = [name: string, run: () => Admitted | Promise<Admitted>, expected: Expected];

const ROWS: Row[] = [
  // Closed by default: only what the capability exposes.
  ['an unknown tool is refused', call('nope', {}, NO_RULES), { decision: 'deny', gate: 'capability', rule: 'capability', code: 'TOOL_NOT_ALLOWED' }],
  ['a built-in tool outside the capability is refused', call('write_file', { path: 'a.txt', content: 'x' }, NO_RULES, ['read_file']), { decision: 'deny', gate: 'capability', rule: 'capability', code: 'TOOL_NOT_ALLOWED' }],
  ['an MCP tool no entry allows is refused', call('mcp__gh__list', {}, NO_RULES), { decision: 'deny', gate: 'capability', rule: 'capability', code: 'TOOL_NOT_ALLOWED' }],
  ['near miss: an exposed tool without rules is allowed by default', call('read_file', { path: 'a.txt' }, NO_RULES), { decision: 'allow', gate: 'default', rule: 'default' }],
  // Read-only tools: a profile built from readOnlyTools() exposes no writer.
  ['a read-only profile refuses write_file', call('write_file', { path: 'a.txt', content: 'x' }, NO_RULES, readOnlyTools()), { decision: 'deny', gate: 'capability', rule: 'capability', code: 'TOOL_NOT_ALLOWED' }],
  ['near miss: a read-only profile allows grep', call('grep', { pattern: 'a' }, NO_RULES, readOnlyTools()), { decision: 'allow', gate: 'default', rule: 'default' }],
  // Arguments are checked before any rule.
  ['bad arguments are refused before any rule', call('read_file', { path: 1 }, { session: [{ read_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'admission:INVALID_ARGS', code: 'INVALID_ARGS' }],
  // Rules: deny beats ask beats allow, whatever the order and the layer.
  ['a deny pattern beats an allow pattern of the same tool', call('read_file', { path: 'secret/k.txt' }, { session: [{ read_file: { allow: ['**'], deny: ['secret/**'] } }] }), { decision: 'deny', gate: 'session', rule: "session rule read_file.deny 'secret/**'", code: 'POLICY_DENIED', item: 'secret/k.txt' }],
  ['near miss: the allow pattern decides a path the deny does not match', call('read_file', { path: 'src/b.ts' }, { session: [{ read_file: { allow: ['**'], deny: ['secret/**'] } }] }), { decision: 'allow', gate: 'session', rule: "session rule read_file.allow '**'" }],
  ['a host deny beats a session allow', call('write_file', { path: 'a.txt', content: 'x' }, { host: { write_file: 'deny' }, session: [{ write_file: 'allow' }] }), { decision: 'deny', gate: 'host', rule: "host rule write_file: 'deny'", code: 'POLICY_DENIED' }],
  ['a session ask beats a host allow', call('write_file', { path: 'a.txt', content: 'x' }, { host: { write_file: 'allow' }, session: [{ write_file: { ask: ['*.txt'] } }] }), { decision: 'ask', gate: 'session', rule: "session rule write_file.ask '*.txt'", options: ['allow', 'deny', 'allow-always'] }],
  ["the '*' entry matches tool names", call('read_file', { path: 'a.txt' }, { session: [{ '*': { deny: ['read_*'] } }] }), { decision: 'deny', gate: 'session', rule: "session rule *.deny 'read_*'", code: 'POLICY_DENIED' }],
  // The path guard refuses before any rule can allow: blocked paths, outside the workspace, twins and links.
  ['a blocked path is refused under an allow-all rule', call('write_file', { path: '.git/hooks/pre-commit', content: 'x' }, { session: [{ write_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:BLOCKED_PATH', code: 'BLOCKED_PATH' }],
  ['a write outside the workspace is refused', call('write_file', { path: '../x.txt', content: 'x' }, { session: [{ write_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:OUTSIDE_WORKSPACE', code: 'OUTSIDE_WORKSPACE' }],
  ['a read climbing out is refused', call('read_file', { path: '../outside.txt' }, { session: [{ read_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:NOT_READABLE', code: 'NOT_READABLE' }],
  ['a read of the prefix twin is refused', call('read_file', () => ({ path: home.at('ws-evil/x.txt') }), { session: [{ read_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:NOT_READABLE', code: 'NOT_READABLE' }],
  ['a read through a link to outside is refused', call('read_file', { path: 'out-link' }, { session: [{ read_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:NOT_READABLE', code: 'NOT_READABLE' }],
  ['a read through a link to the twin is refused', call('read_file', { path: 'twin-link/x.txt' }, { session: [{ read_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:NOT_READABLE', code: 'NOT_READABLE' }],
  ["near miss: '..test' is an ordinary name inside", call('read_file', { path: '..test' }, { session: [{ read_file: { deny: ['secret/**'] } }] }), { decision: 'allow', gate: 'default', rule: "default for read_file: 'allow' (file tools)" }],
  ['apply_patch checks every path even without rules', call('apply_patch', { patch: '*** Begin Patch\n*** Add File: ../evil.txt\n+x\n*** End Patch' }, NO_RULES, ['apply_patch']), { decision: 'deny', gate: 'refused', rule: 'path:OUTSIDE_WORKSPACE', code: 'OUTSIDE_WORKSPACE' }],
  // ctx requests stand for the built-in tool whose rules govern them.
  ['ctx.fs.readFile is denied by the read_file rules', ctx('read_file', { path: 'secret/k.txt' }, { session: [{ read_file: { deny: ['secret/**'] } }] }), { decision: 'deny', gate: 'session', rule: "session rule read_file.deny 'secret/**'", code: 'POLICY_DENIED' }],
  ['near miss: ctx.fs.readFile of another path is allowed', ctx('read_file', { path: 'src/b.ts' }, { session: [{ read_file: { deny: ['secret/**'] } }] }), { decision: 'allow', gate: 'default', rule: "default for read_file: 'allow' (file tools)" }],
  ['ctx.fs outside the workspace is refused by the guard', ctx('write_file', { path: '../x.txt' }, { session: [{ write_file: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'path:OUTSIDE_WORKSPACE', code: 'OUTSIDE_WORKSPACE' }],
  ['ctx.fetch asks by the web_fetch rule', ctx('web_fetch', { url: 'https://example.com' }, { session: [{ web_fetch: 'ask' }] }), { decision: 'ask', gate: 'session', rule: "session rule web_fetch: 'ask'" }],
  // bash: each command has its own verdict.
  ['a plain command is allowed by its static check', command('echo hi', NO_RULES), { decision: 'allow', gate: 'default', rule: "default for bash: static check 'allow'" }],
  ['a command reading outside is refused by the static check', command('cat ../outside.txt', { session: [{ bash: 'allow' }] }), { decision: 'deny', gate: 'refused', rule: 'static check', code: 'NOT_READABLE' }],
  ['a cwd outside the workspace is refused by the guard', command('echo hi', { session: [{ bash: 'allow' }] }, { cwd: '..' }), { decision: 'deny', gate: 'refused', rule: 'path:OUTSIDE_WORKSPACE', code: 'OUTSIDE_WORKSPACE' }],
  ['one denied command of a list denies the call, naming it', command('echo hi && git push origin', { session: [{ bash: { allow: ['echo *'], deny: ['git push*'] } }] }), { decision: 'deny', gate: 'session', rule: "session rule bash.deny 'git push*'", code: 'POLICY_DENIED', item: 'git push origin' }],
  ['near miss: every command allowed by a rule', command('echo hi && git status', { session: [{ bash: { allow: ['echo *', 'git status'] } }] }), { decision: 'allow', gate: 'session', rule: /^session rule bash\.allow / }],
  ['an unknown command asks by its static verdict', command('mystery-tool --go', NO_RULES), { decision: 'ask', gate: 'default', rule: /^default for bash: static check 'ask'/ }],
  ['a dangerous removal asks under an allow rule, once only', command('rm -rf .', { session: [{ bash: { allow: ['rm *'] } }] }), { decision: 'ask', gate: 'dangerous', rule: /^dangerous removal always asks/, options: ['allow', 'deny'] }],
  // Remembered allow-always answers lift an ask for the same subject, never a dangerous removal.
  ['a remembered allow-always allows the same command', async () => command('echo again', { session: [{ bash: { ask: ['echo *'] } }] }, { remembered: await rememberedFor('echo again') })(), { decision: 'allow', gate: 'remembered', rule: /^remembered 'allow-always' answer/ }],
  ['near miss: a remembered answer for another command does not', async () => command('echo other', { session: [{ bash: { ask: ['echo *'] } }] }, { remembered: await rememberedFor('echo again') })(), { decision: 'ask', gate: 'session', rule: "session rule bash.ask 'echo *'" }],
  ['a remembered answer never allows a dangerous removal', async () => command('rm -rf .', { session: [{ bash: { ask: ['rm *'] } }] }, { remembered: await rememberedFor('rm -rf .') })(), { decision: 'ask', gate: 'session', rule: "session rule bash.ask 'rm *'", options: ['allow', 'deny'] }],
];

describe('admit: every decision source', () => {
  it.each(ROWS)('%s', async (_name, run, expected) => {
    const admitted = await run();
    const { rule, ...rest } = expected;
    expect(admitted).toMatchObject(rest);
    if (typeof rule === 'string') expect(admitted.rule).toBe(rule);
    else expect(admitted.rule).toMatch(rule);
    // A code exactly when it denies; the reason names the tool unless it is the guard's or the check's own sentence.
    expect(admitted.code === undefined).toBe(admitted.decision !== 'deny');
    expect(admitted.reason).not.toBe('');
    if (admitted.gate !== 'refused') expect(admitted.reason).toContain(`${admitted.subject.tool}`);
  });

  it('the reason of a rule decision names the tool, the rule and the deciding item', () => {
    const admitted = admit({ tool: 'bash', subject: { tool: 'bash', kind: 'bash', commands: ['ls', 'git push'], staticVerdict: 'allow' }, layers: { host: { bash: { deny: ['git push*'] } }, session: [] } });
    expect(admitted).toMatchObject({ decision: 'deny', code: 'POLICY_DENIED', reason: "bash denied by host rule bash.deny 'git push*' (for 'git push')" });
  });

  it('a refusal before any rule decides whatever the rules say', () => {
    const request: GateRequest = { tool: 'read_file', subject: { tool: 'read_file', kind: 'file', paths: ['a'] }, refused: { code: 'BLOCKED_PATH', reason: 'blocked', rule: 'path:BLOCKED_PATH' } };
    expect(admit({ ...request, layers: { host: { read_file: 'allow' }, session: [{ read_file: 'allow' }] } })).toMatchObject({ decision: 'deny', code: 'BLOCKED_PATH', reason: 'blocked' });
  });

  it('the capability check comes before a refusal and before the rules', () => {
    const refused = { code: 'BLOCKED_PATH' as const, reason: 'blocked', rule: 'path:BLOCKED_PATH' };
    expect(admit({ tool: 'x', exposure: { visible: false, allowed: [] }, refused, layers: { session: [{ x: 'allow' }] } })).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_ALLOWED', reason: "tool 'x' is not in this session's capability (allowed: none)" });
  });

  it.each([
    ['names the closest tool the capability has', 'read_fil', ['read_file', 'grep'], "tool 'read_fil' is not in this session's capability (allowed: read_file, grep); did you mean 'read_file'?"],
    ['suggests nothing far from every tool it has', 'bash', ['read_file', 'grep'], "tool 'bash' is not in this session's capability (allowed: read_file, grep)"],
    ['never suggests a tool it does not have', 'bsh', ['read_file'], "tool 'bsh' is not in this session's capability (allowed: read_file)"],
  ])('a refusal by the capability %s', (_rule, tool, allowed, reason) => {
    expect(admit({ tool, exposure: { visible: false, allowed }, layers: { session: [] } })).toMatchObject({ code: 'TOOL_NOT_ALLOWED', reason });
  });
});
