import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type ApprovalOption, type AuditEvent, type Runtime } from '../../runtime/index.js';
import type { SessionOptions } from '../../runtime/session/session-options.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The audit tells refusals apart: a path-guard refusal is `deny` with `path:<code>`, an approved call records the
// approver's answer, a call that was allowed and failed is `error`. Each row asserts the exact event.
let home: TempTree;
let ws: string;

beforeAll(() => {
  home = makeTempTree('tw-audit-decisions', { 'outside.txt': 'outside\n', 'ws/a.txt': 'a\n', 'ws/.git/hooks/.keep': '' });
  ws = home.at('ws');
  fs.symlinkSync('loop', home.at('ws/loop'));
});
afterAll(() => home.cleanup());

async function withRuntime<T>(answers: ApprovalOption[], session: Omit<SessionOptions, 'workspaceRoot'>, run: (call: (tool: string, args: Record<string, unknown>) => Promise<AuditEvent>) => Promise<T>): Promise<T> {
  const events: AuditEvent[] = [];
  const rt: Runtime = await createRuntime({ idleWorkers: 0, approve: () => answers.shift() ?? 'deny', audit: { callback: (event) => events.push(event), full: true } });
  try {
    const s = await rt.openSession({ workspaceRoot: ws, sandbox: 'off', ...session });
    return await run(async (tool, args) => {
      const before = events.length;
      await s.call(tool, args);
      expect(events).toHaveLength(before + 1);
      const { time, sessionId, durationMs, result: _result, ...event } = events.at(-1)!;
      expect(sessionId).toBe(s.id);
      expect(typeof time === 'string' && typeof durationMs === 'number').toBe(true);
      return event as AuditEvent;
    });
  } finally {
    await rt.close();
  }
}

const FILE_TOOLS = { tools: ['read_file', 'write_file', 'list_dir', 'bash'] };

describe('a path-guard refusal is deny with the guard rule path:<code>', () => {
  it.each<[string, SessionOptions['permissions'] | undefined, string, () => Record<string, unknown>, string]>([
    ['read outside the workspace (absolute)', undefined, 'read_file', () => ({ path: home.at('outside.txt') }), 'NOT_READABLE'],
    ['read climbing out', undefined, 'read_file', () => ({ path: '../outside.txt' }), 'NOT_READABLE'],
    ['write outside the workspace', undefined, 'write_file', () => ({ path: '../x.txt', content: 'x' }), 'OUTSIDE_WORKSPACE'],
    ['write into .git/hooks', undefined, 'write_file', () => ({ path: '.git/hooks/pre-commit', content: 'x' }), 'BLOCKED_PATH'],
    ['read through a symlink loop', undefined, 'read_file', () => ({ path: 'loop' }), 'SYMLINK_LOOP'],
    ['list above the workspace', undefined, 'list_dir', () => ({ path: '..' }), 'NOT_READABLE'],
    ['bash with a cwd outside', undefined, 'bash', () => ({ command: 'echo hi', cwd: '..' }), 'OUTSIDE_WORKSPACE'],
    ['read outside under a rule for the tool (refused at admission)', { read_file: { deny: ['secret/**'] } }, 'read_file', () => ({ path: '../outside.txt' }), 'NOT_READABLE'],
    ['write outside under a rule for the tool (refused at admission)', { write_file: { allow: ['**'] } }, 'write_file', () => ({ path: '../x.txt', content: 'x' }), 'OUTSIDE_WORKSPACE'],
  ])('%s', async (_name, permissions, tool, args, code) => {
    const event = await withRuntime([], { ...FILE_TOOLS, ...(permissions ? { permissions } : {}) }, (call) => call(tool, args()));
    expect(event).toEqual({ tool, args: args(), decision: 'deny', rule: `path:${code}`, code });
    expect(fs.existsSync(home.at('x.txt'))).toBe(false);
  });

  it.each<[string, string, Record<string, unknown>, Omit<AuditEvent, 'time' | 'sessionId' | 'durationMs' | 'tool' | 'args'>]>([
    ['a missing file is an error, not a refusal', 'read_file', { path: 'missing.txt' }, { decision: 'error', rule: 'default', code: 'NOT_FOUND' }],
    ['an allowed read is allow by the default', 'read_file', { path: 'a.txt' }, { decision: 'allow', rule: 'default' }],
    ['an allowed command names its deciding rule', 'bash', { command: 'echo hi' }, { decision: 'allow', rule: "default for bash: static check 'allow'" }],
    ['a command the static check refuses keeps its rule', 'bash', { command: 'cat ../outside.txt' }, { decision: 'deny', rule: 'static check', code: 'NOT_READABLE' }],
    ['a failing command is allow (it ran)', 'bash', { command: 'false' }, { decision: 'allow', rule: "default for bash: static check 'allow'" }],
  ])('near miss: %s', async (_name, tool, args, expected) => {
    const event = await withRuntime([], FILE_TOOLS, (call) => call(tool, args));
    expect(event).toEqual({ tool, args, ...expected });
  });
});

describe("an approved call records the approver's answer as its rule", () => {
  it.each<[string, NonNullable<SessionOptions['permissions']>, string, (n: number) => Record<string, unknown>]>([
    ['bash', { bash: { ask: ['echo *'] } }, 'bash', () => ({ command: 'echo approved' })],
    ['write_file', { write_file: 'ask' }, 'write_file', (n) => ({ path: 'b.txt', content: `b${n}` })],
  ])('%s: once, always, then remembered; a refusal names the asking rule', async (_name, permissions, tool, args) => {
    await withRuntime(['allow', 'allow-always', 'deny'], { ...FILE_TOOLS, permissions }, async (call) => {
      expect(await call(tool, args(1))).toEqual({ tool, args: args(1), decision: 'allow', rule: 'approval:once' });
      expect(await call(tool, args(1))).toEqual({ tool, args: args(1), decision: 'allow', rule: 'approval:always' });
      // Remembered for this subject: the approver is not asked again.
      expect(await call(tool, args(1))).toEqual({ tool, args: args(1), decision: 'allow', rule: 'approval:remembered' });
    });
    await withRuntime(['deny'], { ...FILE_TOOLS, permissions }, async (call) => {
      const denied = await call(tool, args(2));
      expect(denied).toEqual({ tool, args: args(2), decision: 'deny', code: 'APPROVAL_DENIED', rule: expect.stringMatching(tool === 'bash' ? /^session rule bash\.ask 'echo \*'/ : /^session rule write_file: 'ask'/) });
    });
  });

  it('a dangerous removal answered allow-always (not offered) is denied at once, and nothing is removed', async () => {
    const victim = makeTempTree('tw-audit-danger', { 'keep.txt': 'k\n' });
    const events: AuditEvent[] = [];
    const rt = await createRuntime({ idleWorkers: 0, approve: () => 'allow-always', audit: (event) => events.push(event) });
    try {
      const s = await rt.openSession({ workspaceRoot: victim.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { allow: ['rm *'] } } });
      const result = await s.call('bash', { command: 'rm -rf .' });
      expect(result).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
      expect(events.at(-1)).toMatchObject({ tool: 'bash', decision: 'deny', code: 'APPROVAL_DENIED' });
      expect(events.at(-1)?.rule).not.toMatch(/^approval:/);
      expect(fs.existsSync(victim.at('keep.txt'))).toBe(true);
    } finally {
      await rt.close();
      victim.cleanup();
    }
  });
});

describe('ctx requests are audited the same way', () => {
  it("ctx.exec approved by the approver records approval:once as ctx:bash", async () => {
    const events: AuditEvent[] = [];
    const rt = await createRuntime({ idleWorkers: 0, toolModules: ['test/fixtures/tools/basic-tools.mjs'], approve: () => 'allow', audit: (event) => events.push(event) });
    try {
      const s = await rt.openSession({ workspaceRoot: ws, tools: ['run_command', 'bash'], sandbox: 'off', permissions: { bash: { ask: ['echo *'] } } });
      await s.call('run_command', { command: 'echo via ctx' });
      expect(events.find((e) => e.tool === 'ctx:bash')).toMatchObject({ decision: 'allow', rule: 'approval:once' });
      expect(events.find((e) => e.tool === 'run_command')).toMatchObject({ decision: 'allow', rule: 'default' });
    } finally {
      await rt.close();
    }
  });
});
