import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, explain, readOnlyTools, type ApprovalRequest, type PermissionSpec, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Rules through the public API: both gates, precedence, per-command matching, file globs, attenuation.
// sandbox 'off' keeps the static check strict (unknown commands ask), so what decides is visible.
let ws: TempTree;
beforeAll(() => {
  ws = makeTempTree('tw-policy', { 'docs/a.md': '# a\n', 'src/a.ts': 'x\n', 'secrets/key.txt': 'k\n' });
});
afterAll(() => ws.cleanup());

type Outcome = 'ran' | 'POLICY_DENIED' | 'APPROVAL_DENIED' | 'NOT_READABLE';

/** Runs one bash command under host and session rules, with an approver that denies and records. */
async function runUnder(host: PermissionSpec | undefined, session: PermissionSpec | undefined, command: string): Promise<{ outcome: Outcome; text: string; asked: ApprovalRequest[] }> {
  const asked: ApprovalRequest[] = [];
  const rt = await createRuntime({ idleWorkers: 0, ...(host ? { permissions: host } : {}), approve: (req) => (asked.push(req), 'deny') });
  try {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', ...(session ? { permissions: session } : {}) });
    const result = await s.call('bash', { command });
    const outcome = result.isError ? (result.code as Outcome) : 'ran';
    return { outcome, text: textOf(result), asked };
  } finally {
    await rt.close();
  }
}

describe('bash rules', () => {
  const layered: PermissionSpec = { bash: { allow: ['echo *'], ask: ['echo secret*'], deny: ['echo secret now'] } };
  const reversed: PermissionSpec = { bash: { deny: ['echo secret now'], ask: ['echo secret*'], allow: ['echo *'] } };
  it.each([
    // name, host, session, command, outcome, text the refusal must contain
    ['no rules: a known command inside the workspace runs', undefined, undefined, 'echo hi', 'ran', ''],
    ['no rules: an unknown command asks', undefined, undefined, 'some-unknown-tool --flag', 'APPROVAL_DENIED', 'static check'],
    ['host deny git push*', { bash: { deny: ['git push*'] } }, undefined, 'git push origin main', 'POLICY_DENIED', "host rule bash.deny 'git push*'"],
    ['session deny git push*', undefined, { bash: { deny: ['git push*'] } }, 'git push --force', 'POLICY_DENIED', "session rule bash.deny 'git push*'"],
    ['git push* does not catch git status', undefined, { bash: { deny: ['git push*'] } }, 'git status --short', 'ran', ''],
    ['deny beats ask beats allow: allow', undefined, layered, 'echo hello', 'ran', ''],
    ['deny beats ask beats allow: ask', undefined, layered, 'echo secret x', 'APPROVAL_DENIED', "bash.ask 'echo secret*'"],
    ['deny beats ask beats allow: deny', undefined, layered, 'echo secret now', 'POLICY_DENIED', "bash.deny 'echo secret now'"],
    ['order does not matter: ask', undefined, reversed, 'echo secret x', 'APPROVAL_DENIED', "bash.ask 'echo secret*'"],
    ['order does not matter: deny', undefined, reversed, 'echo secret now', 'POLICY_DENIED', "bash.deny 'echo secret now'"],
    ['safe && evil: the evil part is judged alone', { bash: { deny: ['git push*'] } }, { bash: { allow: ['echo *'] } }, 'echo ok && git push origin', 'POLICY_DENIED', "git push*"],
    ['safe; unknown: an allow on the safe part does not lift the rest', undefined, { bash: { allow: ['echo *'] } }, 'echo ok; some-unknown-tool', 'APPROVAL_DENIED', 'some-unknown-tool'],
    ['a denied command in a subshell', undefined, { bash: { deny: ['git push*'] } }, '(cd src && git push)', 'POLICY_DENIED', 'git push'],
    ['a denied command behind a wrapper', undefined, { bash: { deny: ['git push*'] } }, 'timeout 5 git push', 'POLICY_DENIED', 'git push'],
    ['a denied command in a command substitution', undefined, { bash: { deny: ['git push*'] } }, 'echo $(git push)', 'POLICY_DENIED', 'git push'],
    ['both gates: host allow, session deny', { bash: { allow: ['echo *'] } }, { bash: { deny: ['echo *'] } }, 'echo hi', 'POLICY_DENIED', 'session rule'],
    ['both gates: host deny, session allow', { bash: { deny: ['echo *'] } }, { bash: { allow: ['echo *'] } }, 'echo hi', 'POLICY_DENIED', 'host rule'],
    ['both gates: host ask, session allow', { bash: { ask: ['echo *'] } }, { bash: { allow: ['echo *'] } }, 'echo hi', 'APPROVAL_DENIED', 'host rule'],
    ['shorthand deny for the tool', undefined, { bash: 'deny' }, 'echo hi', 'POLICY_DENIED', "session rule bash: 'deny'"],
    ['an allow rule does not lift a static deny (path outside)', undefined, { bash: 'allow' }, 'cat /etc/passwd', 'NOT_READABLE', '/etc/passwd'],
    // each command's static verdict is its own default
    ['trap with a command asks for the trap, naming it and why', undefined, undefined, "trap 'rm -f x' EXIT; echo ready", 'APPROVAL_DENIED', "trap runs a command string later, which is not checked) (for 'trap 'rm -f x' EXIT')"],
    ['an allow rule for trap lifts its ask; echo stays allowed by default', undefined, { bash: { allow: ['trap *'] } }, "trap 'rm -f x' EXIT; echo ready", 'ran', ''],
    ['an allow rule for an unknown command; the rest stays allowed by default', undefined, { bash: { allow: ['some-unknown-tool*'] } }, 'echo ok; some-unknown-tool --flag', 'ran', ''],
    ['the allow rule must hold in both gates', { bash: { allow: ['trap *'] } }, { bash: { allow: ['echo *'] } }, "trap 'rm -f x' EXIT; echo ready", 'APPROVAL_DENIED', 'trap runs a command string later'],
    ['an allow rule for the refused command does not lift its deny', undefined, { bash: { allow: ['cat *', 'echo *'] } }, 'echo ok && cat /etc/passwd', 'NOT_READABLE', "cat /etc/passwd: read of /etc/passwd refused"],
    ['a parse failure asks under an allow shorthand', undefined, { bash: 'allow' }, 'echo "unterminated', 'APPROVAL_DENIED', 'static check asks for the whole call (the command does not parse cleanly'],
  ] as const)('%s', async (_name, host, session, command, outcome, needle) => {
    const result = await runUnder(host as PermissionSpec | undefined, session as PermissionSpec | undefined, command);
    expect(result.outcome, result.text).toBe(outcome);
    expect(result.text).toContain(needle);
    if (outcome === 'APPROVAL_DENIED') expect(result.asked).toHaveLength(1);
    else expect(result.asked).toHaveLength(0);
  });
});

describe('bash refusal messages', () => {
  it('name the command that decided, not a harmless neighbour', async () => {
    const result = await runUnder(undefined, { bash: { allow: ['echo *'] } }, "echo ready; trap 'rm -f x' EXIT");
    expect(result.outcome).toBe('APPROVAL_DENIED');
    expect(result.text).toContain("(for 'trap 'rm -f x' EXIT')");
    expect(result.text).not.toContain('echo ready');
    expect(result.asked[0]?.reason).toContain("(for 'trap 'rm -f x' EXIT')");
  });
});

describe('file tool globs', () => {
  let rt: Runtime;
  const asked: ApprovalRequest[] = [];
  beforeAll(async () => {
    rt = await createRuntime({ idleWorkers: 1, approve: (req) => (asked.push(req), 'deny') });
  });
  afterAll(() => rt.close());

  it.each([
    ['write_file deny secrets/**', { path: 'secrets/new.txt', content: 'x' }, 'write_file', 'POLICY_DENIED', "write_file.deny 'secrets/**'"],
    ['write_file deny secrets/** nested', { path: 'secrets/deep/er.txt', content: 'x' }, 'write_file', 'POLICY_DENIED', "write_file.deny 'secrets/**'"],
    ['write_file elsewhere', { path: 'src/new.ts', content: 'x' }, 'write_file', 'ran', ''],
    ['write_file through a ../ spelling is judged canonically', { path: 'src/../secrets/k2.txt', content: 'x' }, 'write_file', 'POLICY_DENIED', 'secrets/**'],
    ['read_file ask docs/*.md', { path: 'docs/a.md' }, 'read_file', 'APPROVAL_DENIED', "read_file.ask 'docs/*.md'"],
    ['read_file elsewhere', { path: 'src/a.ts' }, 'read_file', 'ran', ''],
  ] as const)('%s', async (_name, args, tool, outcome, needle) => {
    const permissions: PermissionSpec = { write_file: { deny: ['secrets/**'] }, read_file: { ask: ['docs/*.md'] } };
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'read_file'], permissions });
    const result = await s.call(tool, { ...args });
    expect(result.isError ? result.code : 'ran', textOf(result)).toBe(outcome);
    expect(textOf(result)).toContain(needle);
    await s.close();
  });

  it('gives the approver the canonical workspace-relative paths', async () => {
    asked.length = 0;
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'], permissions: { read_file: { ask: ['docs/**'] } }, user: 'ann' });
    await s.call('read_file', { path: './docs/../docs/a.md' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ sessionId: s.id, user: 'ann', tool: 'read_file', paths: ['docs/a.md'], dangerous: false });
    await s.close();
  });
});

describe('attenuation keeps the parent rules', () => {
  it('a child cannot allow what the parent denies, and may add a stricter rule', async () => {
    const rt = await createRuntime({ idleWorkers: 0 });
    const parent = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', permissions: { bash: { deny: ['git push*'] } } });
    const child = await parent.attenuate({ permissions: { bash: { allow: ['git push*'], deny: ['echo *'] } } });
    const push = await child.call('bash', { command: 'git push' });
    expect(push).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
    expect(textOf(push)).toContain("bash.deny 'git push*'");
    expect(await child.call('bash', { command: 'echo hi' })).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
    expect((await parent.call('bash', { command: 'echo hi' })).isError).toBeFalsy();
    const grandchild = await child.attenuate({});
    expect(await grandchild.call('bash', { command: 'echo hi' })).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
    await rt.close();
  });

  it("a child's allow cannot lift the parent's built-in ask", async () => {
    const rt = await createRuntime({ idleWorkers: 0 });
    const parent = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off' });
    const child = await parent.attenuate({ permissions: { bash: 'allow' } });
    expect(await child.call('bash', { command: 'some-unknown-tool' })).toMatchObject({ isError: true, code: 'APPROVAL_DENIED' });
    await rt.close();
  });
});

describe("a session's capability cannot be changed after it opens", () => {
  // Found by an attacker's pass: the capability was a live object, its rule layers shared with children, so the
  // holder of a child could delete its parent's deny, or push a tool into its own list.
  it('its fields are frozen: a child cannot widen itself or loosen its parent, and the rules keep holding', async () => {
    const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off' });
    try {
      const parent = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'glob'], permissions: { read_file: 'deny' } });
      const child = await parent.attenuate({ tools: ['read_file'] });
      const attempts: [string, () => unknown][] = [
        ["delete the parent's deny through the child", () => delete (child.capability.permissions[0] as Record<string, unknown>)['read_file']],
        ["empty the parent's rule layers", () => ((parent.capability.permissions as PermissionSpec[]).length = 0)],
        ['push a tool into the child', () => (child.capability.tools as string[]).push('glob')],
        ['raise a limit', () => ((child.capability.limits as { toolTimeoutMs: number }).toolTimeoutMs = 1e9)],
        ['replace the workspace', () => ((child.capability as { workspaceRoot: string }).workspaceRoot = '/')],
      ];
      for (const [what, attempt] of attempts) expect(attempt, what).toThrow(TypeError);
      expect(await parent.call('read_file', { path: 'docs/a.md' })).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
      expect(await child.call('read_file', { path: 'docs/a.md' })).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
      expect(await child.call('glob', { pattern: '**' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
      // The near miss: reading the capability works, and the parent's other tool still runs.
      expect(child.capability.tools).toEqual(['read_file']);
      expect((await parent.call('glob', { pattern: '**/*.md' })).isError).toBeFalsy();
    } finally {
      await rt.close();
    }
  });

  it("freezes a copy: the host's own option objects stay its own", async () => {
    const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off' });
    try {
      const permissions: PermissionSpec = { read_file: 'deny' };
      const tools = ['read_file'];
      const s = await rt.openSession({ workspaceRoot: ws.root, tools, permissions });
      expect(Object.isFrozen(permissions) || Object.isFrozen(tools)).toBe(false);
      permissions['read_file'] = 'allow';
      tools.push('glob');
      expect(await s.call('read_file', { path: 'docs/a.md' })).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
      expect(await s.call('glob', { pattern: '**' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    } finally {
      await rt.close();
    }
  });
});

describe('rules name real tools (issue 11)', () => {
  let ws: TempTree;
  beforeAll(() => {
    ws = makeTempTree('tw-rule-names', { 'a.txt': 'a\n' });
  });
  afterAll(() => ws.cleanup());

  it.each([
    ['a typo of bash', { bsh: 'deny' }, /'bsh'.*did you mean 'bash'/],
    ['an MCP tool with no MCP server configured', { mcp__github__create_issue: 'deny' }, /MCP server 'github', which is not configured/],
  ])('createRuntime refuses %s', async (_name, permissions, message) => {
    await expect(createRuntime({ idleWorkers: 0, permissions: permissions as PermissionSpec })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(message) });
  });

  it('openSession and attenuate refuse a rule for an unknown tool, and accept bash and a tool-name pattern', async () => {
    const rt = await createRuntime({ idleWorkers: 0, permissions: { bash: 'deny', '*': { ask: ['mcp__*'] } } });
    try {
      await expect(rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], permissions: { bsh: 'deny' } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/openSession permissions has a rule for 'bsh'.*did you mean 'bash'/) });
      const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash', 'read_file'], permissions: { bash: 'deny' } });
      await expect(s.attenuate({ permissions: { raed_file: 'deny' } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/attenuate permissions has a rule for 'raed_file'.*did you mean 'read_file'/) });
      const child = await s.attenuate({ permissions: { read_file: 'deny' } });
      expect((await child.call('read_file', { path: 'a.txt' })).code).toBe('POLICY_DENIED');
      await s.close();
    } finally {
      await rt.close();
    }
  });
});

describe('exports', () => {
  it('readOnlyTools() classifies bash, read_file, glob and grep', () => {
    expect([...readOnlyTools()].sort()).toEqual(['bash', 'glob', 'grep', 'read_file']);
  });

  it('explain() names the deciding rule and agrees with a real call', async () => {
    const host: PermissionSpec = { bash: { deny: ['git push*'] } };
    // The pure explain() does not parse shell: the broker's simple commands are passed as facts.
    const e = explain({ host }, 'bash', { command: 'echo ok && git push' }, { subject: { commands: ['echo ok', 'git push'], staticVerdict: 'allow' } });
    expect(e.decision).toBe('deny');
    expect(e.rule).toContain("host rule bash.deny 'git push*'");
    expect((await runUnder(host, undefined, 'echo ok && git push')).outcome).toBe('POLICY_DENIED');
  });
});
