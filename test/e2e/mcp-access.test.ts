import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type AuditEvent, type Runtime, type Session, type SessionOptions } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

const SERVER = 'test/fixtures/mcp/test-server.mjs';
const stdio = (...extra: string[]) => ({ command: process.execPath, args: [SERVER, ...extra] });

let rt: Runtime;
let ws: TempTree;
const audit: AuditEvent[] = [];
const opened: Session[] = [];

beforeAll(async () => {
  ws = makeTempTree('tw-mcp', { 'a.txt': 'a\n' });
  rt = await createRuntime({
    idleWorkers: 1,
    audit: (event) => audit.push(event),
    toolModules: ['test/fixtures/tools/basic-tools.mjs'],
    mcpServers: {
      t: stdio(),
      // Its own server, so tools added at run time do not leak into the other tests' listings.
      g: stdio(),
      broken: stdio('--fail'),
      u: { ...stdio(), env: { TOKEN: '${user.token}' }, perUser: true },
    },
    tenants: {
      alice: { mcpServers: ['t:echo', 'u'], secrets: { token: 'alice-token' } },
      bob: { mcpServers: ['t', 'u'], secrets: { token: 'bob-token' }, maxSessions: 1 },
      carol: { mcpServers: ['t:list_*'] },
      dave: { mcpServers: ['u'], secrets: { token: 'dave-token' } },
    },
  });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

async function open(options: SessionOptions = {}): Promise<Session> {
  const session = await rt.openSession({ workspaceRoot: ws.root, ...options });
  opened.push(session);
  return session;
}

const mcpNames = async (s: Session): Promise<string[]> => (await s.listTools()).map((t) => t.name).filter((n) => n.startsWith('mcp__')).sort();

describe('allowlists', () => {
  it('is closed by default: no entries, no MCP tools', async () => {
    const s = await open({ tools: ['read_file'] });
    expect(await mcpNames(s)).toEqual([]);
    expect(await s.call('mcp__t__echo', { text: 'hi' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
  });

  it.each([
    ['a server id allows all its tools', ['t'], ['add', 'crash', 'echo', 'fail', 'grow', 'list_a', 'list_b', 'pid', 'slow', 'whoami'], 'echo', 'nothing'],
    ['a tool entry allows that tool', ['t:echo'], ['echo'], 'echo', 'add'],
    ['a pattern allows the matching tools', ['t:list_*'], ['list_a', 'list_b'], 'list_a', 'echo'],
    ['entries combine', ['t:list_*', 't:add'], ['add', 'list_a', 'list_b'], 'add', 'echo'],
    ['a pattern refuses a name the server does not list', ['t:list_*'], ['list_a', 'list_b'], 'list_a', 'list_c'],
  ])('%s', async (_name, entries, listed, allowed, refused) => {
    const s = await open({ mcpServers: entries });
    const tools = await s.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(listed.map((tool) => `mcp__t__${tool}`));
    expect(tools.find((t) => t.name === 'mcp__t__echo')?.inputSchema ?? { type: 'object', properties: { text: { type: 'string' } } }).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    const args = allowed === 'add' ? { a: 2, b: 3 } : allowed === 'echo' ? { text: 'hello' } : {};
    const ok = await s.call(`mcp__t__${allowed}`, args);
    expect(ok.isError).toBeUndefined();
    expect(textOf(ok)).toBe(allowed === 'add' ? '5' : allowed === 'echo' ? 'hello' : 'a1,a2');
    expect(await s.call(`mcp__t__${refused}`, {})).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
  });

  it('passes structured content and a tool-reported error through', async () => {
    const s = await open({ mcpServers: ['t:add', 't:fail'] });
    expect(await s.call('mcp__t__add', { a: 1, b: 2 })).toMatchObject({ structuredContent: { sum: 3 } });
    const failed = await s.call('mcp__t__fail', {});
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('no such issue');
  });

  it('refuses entries naming an unknown server when opening', async () => {
    await expect(open({ mcpServers: ['nope'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("'nope'") });
    await expect(open({ mcpServers: ['t:bad*pattern'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('refreshes the listing after the server says its tools changed, and tells the sessions that use it', async () => {
    const s = await open({ mcpServers: ['g'] });
    const bystander = await open({ mcpServers: ['t:echo'] });
    let told = 0;
    let bystanderTold = 0;
    s.onToolsChanged(() => (told += 1));
    bystander.onToolsChanged(() => (bystanderTold += 1));
    expect(await mcpNames(s)).not.toContain('mcp__g__extra_1');
    expect(textOf(await s.call('mcp__g__grow', {}))).toBe('added extra_1');
    await vi.waitFor(() => expect(told).toBeGreaterThan(0), { timeout: 5_000, interval: 20 });
    expect(bystanderTold).toBe(0);
    expect(await mcpNames(s)).toContain('mcp__g__extra_1');
    expect(textOf(await s.call('mcp__g__extra_1', {}))).toBe('extra 1');
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('tenants', () => {
  it('gives a user with no explicit list their allowance', async () => {
    const s = await open({ user: 'alice' });
    expect(s.capability.mcpServers).toEqual(['t:echo', 'u']);
    const names = await mcpNames(s);
    expect(names).toContain('mcp__t__echo');
    expect(names).not.toContain('mcp__t__add');
    expect(names).toContain('mcp__u__whoami');
  });

  it.each([
    ['a whole server beyond a one-tool allowance', 'alice', ['t']],
    ['another tool of the server', 'alice', ['t:add']],
    ['a wider pattern', 'carol', ['t:list*']],
    ['a server outside the allowance', 'carol', ['u']],
  ])('refuses %s with ESCALATION', async (_name, user, mcpServers) => {
    await expect(open({ user, mcpServers })).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining(user) });
  });

  it('refuses a per-user server to a session without a user, naming the server', async () => {
    await expect(open({ mcpServers: ['u'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("'u'") });
    await expect(open({ mcpServers: ['t:echo'] })).resolves.toBeDefined();
  });

  it('refuses an unknown user with ESCALATION', async () => {
    await expect(open({ user: 'mallory', mcpServers: ['t'] })).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining('mallory') });
  });

  it('accepts a narrower list than the allowance', async () => {
    const s = await open({ user: 'carol', mcpServers: ['t:list_a'] });
    expect(await mcpNames(s)).toEqual(['mcp__t__list_a']);
  });

  it("gives each user their own per-user server, with only their own secret", async () => {
    const alice = await open({ user: 'alice' });
    const bob = await open({ user: 'bob' });
    const [a, b, a2] = await Promise.all([
      alice.call('mcp__u__whoami', { reversed: true }),
      bob.call('mcp__u__whoami', { reversed: true }),
      alice.call('mcp__u__whoami', { reversed: true }),
    ]);
    expect([textOf(a), textOf(b), textOf(a2)]).toEqual(['nekot-ecila', 'nekot-bob', 'nekot-ecila']);
    // Quoted verbatim, the secret comes back as its placeholder.
    expect(textOf(await alice.call('mcp__u__whoami', {}))).toBe('${user.token}');
    const [alicePid, bobPid] = await Promise.all([alice.call('mcp__u__pid', {}), bob.call('mcp__u__pid', {})]);
    expect(textOf(alicePid)).not.toBe(textOf(bobPid));
    // The host's environment does not reach the server either.
    expect(textOf(await alice.call('mcp__u__whoami', { name: 'PWD' }))).toBe('(unset)');
    await bob.close();
  });

  it("ends a user's own server process when their last session closes, and starts it again on next use", async () => {
    const first = await open({ user: 'dave' });
    const second = await open({ user: 'dave' });
    const pid = Number(textOf(await first.call('mcp__u__pid', {})));
    await first.close();
    expect(textOf(await second.call('mcp__u__pid', {}))).toBe(String(pid));
    await second.close();
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5_000, interval: 50 });
    const third = await open({ user: 'dave' });
    const next = Number(textOf(await third.call('mcp__u__pid', {})));
    expect(next).not.toBe(pid);
    expect(textOf(await third.call('mcp__u__whoami', { reversed: true }))).toBe('nekot-evad');
  });

  it("refuses a user's session beyond their maxSessions, and frees the slot on close", async () => {
    const first = await open({ user: 'bob' });
    await expect(open({ user: 'bob' })).rejects.toMatchObject({ code: 'SESSION_LIMIT', message: expect.stringContaining('bob') });
    const other = await open({ user: 'alice' });
    expect(other.closed).toBe(false);
    await first.close();
    const again = await open({ user: 'bob' });
    await again.close();
  });
});

describe('failures', () => {
  it('reconnects after the server crashes mid-session', async () => {
    const s = await open({ mcpServers: ['t:pid', 't:crash', 't:echo'] });
    const before = textOf(await s.call('mcp__t__pid', {}));
    expect(await s.call('mcp__t__crash', {})).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(await s.call('mcp__t__echo', { text: 'back' }))).toBe('back');
    expect(textOf(await s.call('mcp__t__pid', {}))).not.toBe(before);
  });

  it('reports a server that fails to start as MCP_ERROR naming it, while another keeps working', async () => {
    const s = await open({ mcpServers: ['broken', 't:echo'] });
    expect(await mcpNames(s)).toEqual(['mcp__t__echo']);
    const failed = await s.call('mcp__broken__echo', { text: 'x' });
    expect(failed).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(failed)).toContain("'broken'");
    expect(textOf(failed)).toContain('config file /nowhere.json is missing');
    expect(textOf(await s.call('mcp__t__echo', { text: 'still here' }))).toBe('still here');
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'toolwarden', code: 'MCP_ERROR' }));
  });
});

describe('rules, audit and attenuation', () => {
  it('audits MCP calls and applies permission rules to them by name', async () => {
    const s = await open({ mcpServers: ['t:add', 't:echo'], permissions: { mcp__t__add: 'deny' } });
    const denied = await s.call('mcp__t__add', { a: 1, b: 1 });
    expect(denied).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
    expect(await s.call('mcp__t__echo', { text: 'audited' })).toMatchObject({ content: [{ text: 'audited' }] });
    const mine = audit.filter((event) => event.sessionId === s.id);
    expect(mine).toContainEqual(expect.objectContaining({ tool: 'mcp__t__add', decision: 'deny', code: 'POLICY_DENIED' }));
    expect(mine).toContainEqual(expect.objectContaining({ tool: 'mcp__t__echo', decision: 'allow' }));
  });

  it('applies the allowlist to ctx.mcp.call from a host tool', async () => {
    const s = await open({ tools: ['call_mcp'], mcpServers: ['t:echo'] });
    expect(textOf(await s.call('call_mcp', { tool: 'mcp__t__echo', args: { text: 'via ctx' } }))).toContain('via ctx');
    const outside = await s.call('call_mcp', { tool: 'mcp__t__pid' });
    expect(outside).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(outside)).toContain('TOOL_NOT_ALLOWED');
  });

  // KNOWN BUG (reported, not in this suite's files): the broker's mcpCall, which ctx.mcp.call uses, skips the
  // policy gate and the audit; runtime/session/session-services.ts wires it straight to McpAccess.call. Drop `.fails`
  // once ctx.mcp.call goes through the rules.
  it('applies permission rules and the audit to ctx.mcp.call', async () => {
    const s = await open({ tools: ['call_mcp'], mcpServers: ['t:add'], permissions: { mcp__t__add: 'deny' } });
    const denied = await s.call('call_mcp', { tool: 'mcp__t__add', args: { a: 1, b: 1 } });
    expect(denied).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(denied)).toContain('POLICY_DENIED');
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'ctx:mcp__t__add', decision: 'deny' }));
  });

  it('attenuate narrows mcpServers and refuses widening', async () => {
    const parent = await open({ mcpServers: ['t:list_*', 't:echo'] });
    const child = await parent.attenuate({ mcpServers: ['t:list_a'] });
    expect(await mcpNames(child)).toEqual(['mcp__t__list_a']);
    expect(await child.call('mcp__t__echo', { text: 'x' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    await expect(child.attenuate({ mcpServers: ['t:list_*'] })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ mcpServers: ['t'] })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ mcpServers: ['t:add'] })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ mcpServers: ['g'] })).rejects.toMatchObject({ code: 'ESCALATION' });
    const none = await parent.attenuate({ mcpServers: [] });
    expect(await mcpNames(none)).toEqual([]);
  });
});
