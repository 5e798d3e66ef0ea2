import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type ApprovalOption, type ApprovalRequest, type AuditEvent, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Approvals and audit through the public API: the request the host sees, remembered answers, dangerous
// removal, and the events every call (allowed or refused) leaves behind.
let ws: TempTree;
beforeAll(() => {
  ws = makeTempTree('tw-approve', { 'a.txt': 'a\n' });
});
afterAll(() => ws.cleanup());

/** A runtime whose approver answers from a queue (default `deny`) and records every request. */
async function approvingRuntime(answers: ApprovalOption[] = []): Promise<{ rt: Runtime; asked: ApprovalRequest[]; events: AuditEvent[] }> {
  const asked: ApprovalRequest[] = [];
  const events: AuditEvent[] = [];
  const rt = await createRuntime({
    idleWorkers: 0,
    approve: (request) => {
      asked.push(request);
      return answers.shift() ?? 'deny';
    },
    audit: (event) => events.push(event),
  });
  return { rt, asked, events };
}

describe('approvals', () => {
  it('asks with the full request and runs on allow', async () => {
    const { rt, asked } = await approvingRuntime(['allow']);
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', user: 'ann', permissions: { bash: { ask: ['echo *'] } } });
    const result = await s.call('bash', { command: 'echo asked && true' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked).toEqual([
      {
        sessionId: s.id,
        user: 'ann',
        tool: 'bash',
        args: { command: 'echo asked && true' },
        commands: ['echo asked', 'true'],
        reason: expect.stringContaining("session rule bash.ask 'echo *'"),
        dangerous: false,
        options: ['allow', 'deny', 'allow-always'],
        callTimeLeftMs: expect.any(Number),
        signal: expect.any(AbortSignal),
      },
    ]);
    // The call's own deadline bounds the wait an approver may show (toolTimeoutMs, 30 s by default).
    expect(asked[0]!.callTimeLeftMs).toBeGreaterThan(0);
    expect(asked[0]!.callTimeLeftMs).toBeLessThanOrEqual(30_000);
    await rt.close();
  });

  it.each([
    ['deny', 'APPROVAL_DENIED'],
    ['something else', 'APPROVAL_DENIED'],
  ])('refuses when the approver answers %s, naming the rule', async (answer, code) => {
    const { rt } = await approvingRuntime([answer as ApprovalOption]);
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { ask: ['echo *'] } } });
    const result = await s.call('bash', { command: 'echo x' });
    expect(result).toMatchObject({ isError: true, code });
    expect(textOf(result)).toContain("bash.ask 'echo *'");
    await rt.close();
  });

  it('refuses when the approver throws', async () => {
    const rt = await createRuntime({ idleWorkers: 0, approve: () => { throw new Error('approver down'); } });
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { ask: ['echo *'] } } });
    const result = await s.call('bash', { command: 'echo x' });
    expect(result).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    expect(textOf(result)).toContain('approver down');
    await rt.close();
  });

  it('without an approver, ask means APPROVAL_DENIED', async () => {
    const rt = await createRuntime({ idleWorkers: 0, permissions: { write_file: 'ask' } });
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'] });
    const result = await s.call('write_file', { path: 'b.txt', content: 'b' });
    expect(result).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    expect(textOf(result)).toContain("host rule write_file: 'ask'");
    expect(fs.existsSync(ws.at('b.txt'))).toBe(false);
    await rt.close();
  });

  it('remembers allow-always for this session and subject only; another session asks again', async () => {
    const { rt, asked } = await approvingRuntime(['allow-always']);
    const open = () => rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { ask: ['echo *'] } } });
    const s = await open();
    expect((await s.call('bash', { command: 'echo one' })).isError).toBeFalsy();
    expect((await s.call('bash', { command: 'echo one' })).isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    // A different subject asks (and the queue says deny).
    expect(await s.call('bash', { command: 'echo two' })).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    expect(asked).toHaveLength(2);
    const other = await open();
    expect(await other.call('bash', { command: 'echo one' })).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    expect(asked).toHaveLength(3);
    expect(asked[2]?.sessionId).toBe(other.id);
    await rt.close();
  });
});

describe('dangerous removal', () => {
  it.each([
    ['rm -rf * in the workspace root', 'rm -rf *'],
    ['rm -rf .', 'rm -rf .'],
    ['rm -rf with the absolute root', 'ROOT'],
  ])('%s asks under an allow rule, never offers allow-always, and never remembers it', async (_name, command) => {
    const victim = makeTempTree('tw-danger', { 'keep.txt': 'k\n', 'dir/x.txt': 'x\n' });
    const cmd = command === 'ROOT' ? `rm -rf ${victim.root}` : command;
    const { rt, asked } = await approvingRuntime(['allow-always', 'deny', 'deny']);
    try {
      const s = await rt.openSession({ workspaceRoot: victim.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { allow: ['rm *'] } } });
      // The approver answers allow-always, which is not offered: the call is denied at once, naming the answer.
      const first = await s.call('bash', { command: cmd });
      expect(first).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
      expect(textOf(first)).toContain('the approver answered "allow-always", which is not one of allow, deny');
      expect(asked[0]).toMatchObject({ tool: 'bash', dangerous: true, options: ['allow', 'deny'] });
      expect(asked[0]?.options).not.toContain('allow-always');
      expect(fs.existsSync(victim.at('keep.txt'))).toBe(true);
      // Asked again, nothing remembered; the approver now denies and nothing runs.
      const again = await s.call('bash', { command: cmd });
      expect(again).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
      expect(asked).toHaveLength(2);
      expect(fs.existsSync(victim.at('keep.txt'))).toBe(true);
    } finally {
      await rt.close();
      victim.cleanup();
    }
  });

  it('asks for a dangerous removal among allowed commands, naming it, without allow-always', async () => {
    const victim = makeTempTree('tw-danger', { 'keep.txt': 'k\n' });
    const { rt, asked } = await approvingRuntime(['deny']);
    try {
      const s = await rt.openSession({ workspaceRoot: victim.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { allow: ['ls*', 'rm *'] } } });
      const result = await s.call('bash', { command: 'ls && rm -rf .' });
      expect(result).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
      expect(textOf(result)).toContain("dangerous removal always asks (dangerous removal of .:");
      expect(asked[0]).toMatchObject({ dangerous: true, options: ['allow', 'deny'], reason: expect.stringContaining("(for 'rm -rf .')") });
      expect(fs.existsSync(victim.at('keep.txt'))).toBe(true);
    } finally {
      await rt.close();
      victim.cleanup();
    }
  });

  it('a call that does not parse asks once, never offering allow-always', async () => {
    const { rt, asked } = await approvingRuntime(['allow-always', 'deny']);
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', permissions: { bash: 'allow' } });
    const first = await s.call('bash', { command: 'echo "unterminated' });
    expect(asked[0]).toMatchObject({ dangerous: false, options: ['allow', 'deny'] });
    // allow-always is not offered here: the answer is a denial, not an allow for this call.
    expect(first).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    expect(await s.call('bash', { command: 'echo "unterminated' })).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    expect(asked).toHaveLength(2);
    await rt.close();
  });

  it('a removal outside the write boundary is refused outright, without asking', async () => {
    const { rt, asked } = await approvingRuntime(['allow']);
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', permissions: { bash: 'allow' } });
    const result = await s.call('bash', { command: 'rm -rf /etc' });
    expect(result.isError).toBe(true);
    expect(['OUTSIDE_WORKSPACE', 'POLICY_DENIED', 'BLOCKED_PATH']).toContain(result.code);
    expect(asked).toHaveLength(0);
    await rt.close();
  });
});

describe('audit', () => {
  it('emits an event for allowed and refused calls, with the rule and code', async () => {
    const { rt, events } = await approvingRuntime();
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash', 'read_file'], sandbox: 'off', user: 'bob', permissions: { bash: { deny: ['git push*'] } } });
    await s.call('read_file', { path: 'a.txt' });
    await s.call('bash', { command: 'git push' });
    await s.call('write_file', { path: 'x', content: 'x' });
    const calls = events.filter((e) => e.tool !== 'toolwarden');
    expect(calls).toEqual([
      expect.objectContaining({ sessionId: s.id, user: 'bob', tool: 'read_file', decision: 'allow', durationMs: expect.any(Number), time: expect.any(String) }),
      expect.objectContaining({ tool: 'bash', decision: 'deny', code: 'POLICY_DENIED', rule: expect.stringContaining("bash.deny 'git push*'") }),
      expect.objectContaining({ tool: 'write_file', decision: 'deny', code: 'TOOL_NOT_ALLOWED' }),
    ]);
    await s.call('bash', { command: 'cat /etc/passwd' });
    // A static-check refusal is a refusal like a guard refusal of a file tool, not a failure of an allowed call.
    expect(events.at(-1)).toMatchObject({ tool: 'bash', decision: 'deny', code: 'NOT_READABLE', rule: 'static check' });
    await rt.close();
  });

  it('appends redacted JSON lines to a file, flushed before the call returns', async () => {
    const logDir = makeTempTree('tw-audit', {});
    const file = logDir.at('audit.jsonl');
    fs.writeFileSync(file, '{"earlier":true}\n');
    const rt = await createRuntime({ idleWorkers: 0, audit: { file } });
    try {
      const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'bash'], sandbox: 'off' });
      const secret = 'S'.repeat(500);
      await s.call('write_file', { path: 'big.txt', content: secret });
      await s.call('bash', { command: 'seq 1 200' });
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toEqual({ earlier: true });
      const write = lines.find((l) => l['tool'] === 'write_file');
      expect(write).toMatchObject({ sessionId: s.id, decision: 'allow', args: { path: 'big.txt', content: '<redacted: 500 chars>' } });
      const bash = lines.find((l) => l['tool'] === 'bash');
      expect(bash?.['result']).toMatch(/^1 <redacted: \d+ chars>$/);
      expect(fs.readFileSync(file, 'utf8')).not.toContain(secret);
    } finally {
      await rt.close();
      logDir.cleanup();
    }
  });

  it('logs in full only when asked to', async () => {
    const events: AuditEvent[] = [];
    const rt = await createRuntime({ idleWorkers: 0, audit: { callback: (e) => events.push(e), full: true } });
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'] });
    await s.call('write_file', { path: 'full.txt', content: 'visible content' });
    expect(events.find((e) => e.tool === 'write_file')?.args).toMatchObject({ content: 'visible content' });
    await rt.close();
  });
});
