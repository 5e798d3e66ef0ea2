import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/index.js';
import type { Capability, PermissionSpec } from '../../src/capability/capability.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import type { ApprovalOption } from '../../src/policy/index.js';
import { PolicyGate } from '../../runtime/policy/policy-gate.js';
import { DEADLINE_BACKSTOP_MS } from '../../runtime/calls/in-flight-call.js';
import { createHostCharsetProbe, resolveShell } from '../../runtime/processes/index.js';
import { createSandbox } from '../../runtime/sandbox/create-sandbox.js';
import { Session } from '../../runtime/session/session.js';
import { createSessionServices } from '../../runtime/session/session-services.js';
import { WalkPool } from '../../runtime/walk/index.js';
import { inMemoryLink } from '../helpers/in-memory-tool-host.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The whole call pipeline of a session (turn, admission, plan, in-flight call and deadline, the tool host, the broker,
// the audit) with no Worker: its tool host runs in this thread over in-memory pairs. Each row is one call and the
// exact outcome it must have: the result's code, and the decision and rule the audit records.
let tree: TempTree;
const walk = new WalkPool({ maxThreads: 1 });
afterAll(async () => {
  await walk.close();
  tree.cleanup();
});
beforeAll(() => {
  tree = makeTempTree('tw-pipeline', { 'ws/a.txt': 'alpha\n', 'ws/dir/b.txt': 'beta\n', 'ws/secret/s.txt': 'SECRET\n', 'outside.txt': 'outside\n' });
});

async function openSession(permissions: PermissionSpec | undefined, answers: ApprovalOption[], limits: Partial<typeof DEFAULT_LIMITS> = {}, bound = true): Promise<{ session: Session; audit: AuditEvent[] }> {
  const audit: AuditEvent[] = [];
  const capability: Capability = {
    sid: `s-${Math.random()}`, tools: ['read_file', 'write_file', 'list_dir', 'grep'], workspaceRoot: tree.at('ws'), readRoots: [], allowOutsideWorkspace: false,
    excludedPaths: ['.git'], mcpServers: [], limits: { ...DEFAULT_LIMITS, ...limits }, permissions: permissions === undefined ? [] : [permissions], sandbox: 'off',
    net: false, env: [], toolModules: [], isolation: 'worker',
  };
  const sink = { emit: (event: AuditEvent) => void audit.push(event), close: async () => undefined };
  const services = await createSessionServices(
    {
      gate: new PolicyGate(undefined, () => answers.shift() ?? new Promise<ApprovalOption>(() => undefined)),
      audit: sink,
      walk,
      mcp: undefined,
      shell: resolveShell(process.platform),
      charsetProbe: createHostCharsetProbe(),
      sandboxFor: async () => createSandbox('off', { available: false }),
      zygoteSlots: undefined,
      upstreamTrust: undefined,
    },
    capability,
  );
  const session = new Session({
    capability, token: 'unsigned', tokenExpiresAt: 0, services, audit: sink,
    startHost: async () => inMemoryLink({ bound }).link,
    hostTools: async () => new Map(),
    openChild: () => Promise.reject(new Error('no children here')),
    onClose: async () => undefined,
  });
  await session.start();
  return { session, audit };
}

type Row = [name: string, tool: string, args: Record<string, unknown>, permissions: PermissionSpec | undefined, answers: ApprovalOption[], outcome: { code?: string; decision: string; rule?: string | RegExp }];

const ROWS: Row[] = [
  ['a read, allowed by default (formatted on the main thread)', 'read_file', { path: 'a.txt' }, undefined, [], { decision: 'allow', rule: 'default' }],
  ['a listing, in the tool host', 'list_dir', { path: 'dir' }, undefined, [], { decision: 'allow', rule: 'default' }],
  ['a grep, in the tool host and the walk pool', 'grep', { pattern: 'beta' }, undefined, [], { decision: 'allow', rule: 'default' }],
  ['a read a session rule denies', 'read_file', { path: 'secret/s.txt' }, { read_file: { deny: ['secret/**'] } }, [], { code: 'POLICY_DENIED', decision: 'deny', rule: /read_file.*deny.*secret/ }],
  ['a read outside: the guard at admission', 'read_file', { path: '../outside.txt' }, undefined, [], { code: 'NOT_READABLE', decision: 'deny', rule: 'path:NOT_READABLE' }],
  ['a write into .git: the broker guard, from the tool host', 'write_file', { path: '.git/hooks/x', content: 'x' }, undefined, [], { code: 'BLOCKED_PATH', decision: 'deny', rule: 'path:BLOCKED_PATH' }],
  ['a write asked and approved', 'write_file', { path: 'new.txt', content: 'n' }, { write_file: 'ask' }, ['allow'], { decision: 'allow', rule: 'approval:once' }],
  ['a write asked and denied', 'write_file', { path: 'no.txt', content: 'n' }, { write_file: 'ask' }, ['deny'], { code: 'APPROVAL_DENIED', decision: 'deny' }],
  ['a tool the capability lacks', 'bash', { command: 'true' }, undefined, [], { code: 'TOOL_NOT_ALLOWED', decision: 'deny', rule: 'capability' }],
  ['arguments the schema refuses', 'read_file', { path: 7 }, undefined, [], { code: 'INVALID_ARGS', decision: 'deny', rule: 'admission:INVALID_ARGS' }],
  ['a missing file: an error under the admitting rule', 'read_file', { path: 'missing.txt' }, undefined, [], { code: 'NOT_FOUND', decision: 'error', rule: 'default' }],
];

describe('the call pipeline over an in-memory tool host', () => {
  it.each(ROWS)('%s', async (_name, tool, args, permissions, answers, outcome) => {
    const { session, audit } = await openSession(permissions, answers);
    try {
      const result = await session.call(tool, args);
      expect(result.code).toBe(outcome.code);
      expect(audit).toHaveLength(1);
      const event = audit[0] as AuditEvent;
      expect(event).toMatchObject({ tool, decision: outcome.decision, sessionId: session.id });
      if (outcome.rule instanceof RegExp) expect(event.rule).toMatch(outcome.rule);
      else if (outcome.rule !== undefined) expect(event.rule).toBe(outcome.rule);
    } finally {
      await session.close();
    }
  });

  it('an approved write lands; a denied one leaves nothing', async () => {
    expect(fs.readFileSync(tree.at('ws/new.txt'), 'utf8')).toBe('n');
    expect(fs.existsSync(tree.at('ws/no.txt'))).toBe(false);
  });

  it('a call waiting for a tool host that never finishes starting ends TIMEOUT at the backstop past its deadline', async () => {
    const { session, audit } = await openSession(undefined, [], { toolTimeoutMs: 100 }, false);
    try {
      // list_dir needs the host; read_file of a small file would not.
      const result = await session.call('list_dir', {});
      expect(result.code).toBe('TIMEOUT');
      expect(result.content[0]?.text).toContain(`within ${DEADLINE_BACKSTOP_MS} ms of its deadline`);
      expect(audit.at(-1)).toMatchObject({ decision: 'error', code: 'TIMEOUT' });
    } finally {
      await session.close();
    }
  });

  it('an abort ends the call at once with ABORTED, and the session goes on', async () => {
    const { session } = await openSession({ write_file: 'ask' }, []);
    try {
      const controller = new AbortController();
      // The approver never answers within the call: the abort is what ends it.
      const pending = session.call('write_file', { path: 'late.txt', content: 'x' }, { signal: controller.signal });
      controller.abort();
      expect((await pending).code).toBe('ABORTED');
      expect((await session.call('read_file', { path: 'a.txt' })).isError).toBeUndefined();
    } finally {
      await session.close();
    }
  });

  it('a closed session refuses calls with SESSION_CLOSED', async () => {
    const { session } = await openSession(undefined, []);
    await session.close();
    expect((await session.call('read_file', { path: 'a.txt' })).code).toBe('SESSION_CLOSED');
  });
});
