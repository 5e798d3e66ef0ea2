import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { createRuntime, type Runtime, type Session, type SessionOptions } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

let rt: Runtime;
let ws: TempTree;

beforeAll(async () => {
  rt = await createRuntime();
  ws = makeTempTree('tw-life', { 'src/a.ts': 'const a = 1;\n', 'docs/readme.md': '# hi\n' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe('closed by default', () => {
  it('exposes nothing when tools are omitted', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root });
    expect(await s.listTools()).toEqual([]);
    const result = await s.call('read_file', { path: 'src/a.ts' });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    await s.close();
  });

  it('lists only the allowed tools, with JSON Schema inputs', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'grep'] });
    const tools = await s.listTools();
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'grep']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
    expect((await s.call('write_file', { path: 'x', content: '' })).code).toBe('TOOL_NOT_ALLOWED');
    expect((await s.call('no_such_tool', {})).code).toBe('TOOL_NOT_ALLOWED');
    await s.close();
  });

  it('refuses unknown tool names and bad options when opening', async () => {
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: ['read_fiel'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(rt.openSession({ workspaceRoot: ws.at('missing'), tools: [] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(rt.openSession({ workspaceRoot: ws.root, limits: { readMaxChars: -1 } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(rt.openSession({ tools: [] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('runtime options', () => {
  it.each([
    ['a misspelled option', { toolModule: ['x.mjs'] }, "'toolModule'"],
    ['a negative pool size', { idleWorkers: -1 }, 'idleWorkers'],
    ['an unknown sandbox mode', { sandbox: 'strict' }, 'sandbox'],
    ['a non-function approver', { approve: 'yes' }, 'approve'],
    ['a short key', { key: 'short' }, 'key'],
  ])('createRuntime refuses %s with INVALID_OPTIONS naming it', async (_name, options, named) => {
    await expect(createRuntime(options as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining(named) });
  });
});

describe('capability tokens', () => {
  it('opens a session from a minted token with the same capability', async () => {
    const token = await rt.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    expect(typeof token).toBe('string');
    const s = await rt.openSession({ token });
    expect(textOf(await s.call('read_file', { path: 'src/a.ts' }))).toContain('const a = 1;');
    expect((await s.call('write_file', { path: 'b', content: '' })).code).toBe('TOOL_NOT_ALLOWED');
    await s.close();
  });

  it.each([
    ['one byte changed in the payload', (t: string) => { const [h, p, sig] = t.split('.'); const c = p!.charAt(5) === 'A' ? 'B' : 'A'; return `${h}.${p!.slice(0, 5)}${c}${p!.slice(6)}.${sig}`; }],
    ['one byte changed in the signature', (t: string) => `${t.slice(0, -3)}${t.at(-3) === 'A' ? 'B' : 'A'}${t.slice(-2)}`],
    ['truncated', (t: string) => t.slice(0, -10)],
    ['not a JWS', () => 'hello'],
    ['empty', () => ''],
  ])('refuses a token %s', async (_name, mutate) => {
    const token = await rt.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    await expect(rt.openSession({ token: mutate(token) })).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('binds a token to one open session at a time, even when opened concurrently', async () => {
    const token = await rt.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    const opened = await Promise.allSettled([rt.openSession({ token }), rt.openSession({ token })]);
    expect(opened.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(opened.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'TOKEN_INVALID' } });
    const open = opened.find((o): o is PromiseFulfilledResult<Session> => o.status === 'fulfilled')!.value;
    await open.close();
    const again = await rt.openSession({ token });
    expect(again.token).toBe(token);
    await again.close();
  });

  it("signs a session's own token on demand, and it opens an equal session once the first is closed", async () => {
    const first = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    const token = first.token;
    await expect(rt.openSession({ token })).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await first.close();
    const second = await rt.openSession({ token });
    expect(second.capability).toEqual(first.capability);
    await second.close();
  });

  it('refuses a token from another runtime', async () => {
    const other = await createRuntime({ idleWorkers: 0 });
    const foreign = await other.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    await other.close();
    await expect(rt.openSession({ token: foreign })).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('refuses an expired token', async () => {
    const token = await rt.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], ttlSeconds: -5 });
    await expect(rt.openSession({ token })).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringContaining('expired') });
  });

  it('accepts a token signed by a shared key in another runtime', async () => {
    const key = 'k'.repeat(32);
    const a = await createRuntime({ key, idleWorkers: 0 });
    const b = await createRuntime({ key, idleWorkers: 0 });
    const token = await a.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    const s = await b.openSession({ token });
    expect((await s.call('read_file', { path: 'src/a.ts' })).isError).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a token mixed with capability options', async () => {
    const token = await rt.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    await expect(rt.openSession({ token, tools: ['write_file'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('attenuation', () => {
  it('narrows tools and refuses asking for more', async () => {
    const parent = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'write_file'] });
    const child = await parent.attenuate({ tools: ['read_file'] });
    expect((await child.listTools()).map((t) => t.name)).toEqual(['read_file']);
    expect((await child.call('write_file', { path: 'x', content: '' })).code).toBe('TOOL_NOT_ALLOWED');
    await expect(child.attenuate({ tools: ['write_file'] })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ tools: ['bash'] })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ allowOutsideWorkspace: true })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ limits: { readMaxChars: 10_000_000 } })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ workspaceRoot: ws.at('..') })).rejects.toMatchObject({ code: 'ESCALATION' });
    await Promise.all([child.close(), parent.close()]);
  });

  it('narrows the workspace to a subdirectory and keeps exclusions', async () => {
    const parent = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    const child = await parent.attenuate({ workspaceRoot: ws.at('docs') });
    expect(textOf(await child.call('read_file', { path: 'readme.md' }))).toContain('# hi');
    expect((await child.call('read_file', { path: '../src/a.ts' })).code).toBe('NOT_READABLE');
    await Promise.all([child.close(), parent.close()]);
  });
});

describe('attenuation only narrows (issue 11)', () => {
  const expOf = (token: string): number => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number }).exp;
  let tree: TempTree;
  beforeAll(() => {
    tree = makeTempTree('tw-narrow', { 'app/src/a.ts': 'a\n', 'app/secret/key': 'k\n', 'vendor/lib.js': 'lib\n', 'notes.txt': 'n\n' });
  });
  afterAll(() => tree.cleanup());
  const open = (extra: Partial<SessionOptions> = {}) => rt.openSession({ workspaceRoot: tree.root, tools: ['read_file', 'write_file'], ...extra });

  it.each([
    ['a misspelled key', { tool: ['read_file'] }, "'tool'"],
    ['a NaN write quota', { limits: { writeQuotaBytes: Number.NaN } }, 'writeQuotaBytes'],
    ['a string limit', { limits: { readMaxChars: '10' } }, 'readMaxChars'],
    ['an infinite limit', { limits: { toolTimeoutMs: Number.POSITIVE_INFINITY } }, 'toolTimeoutMs'],
    ['a negative limit', { limits: { maxResults: -1 } }, 'maxResults'],
    ['constructor', JSON.parse('{"constructor": 1}'), "'constructor'"],
    ['__proto__', JSON.parse('{"__proto__": {"allowOutsideWorkspace": true}}'), "'__proto__'"],
  ])('refuses %s with INVALID_OPTIONS naming it', async (_name, request, named) => {
    const parent = await open({ limits: { writeQuotaBytes: 100 } });
    await expect(parent.attenuate(request as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining(named) });
    await parent.close();
  });

  it.each([
    ['another user', { user: 'bob' }],
    ['a weaker sandbox', { sandbox: 'off' }],
    ['outside access', { allowOutsideWorkspace: true }],
    ['a tool the parent lacks', { tools: ['bash'] }],
    ['network access', { net: ['example.com'] }],
    ['an environment variable', { env: ['HOME'] }],
    ['other tool modules', { toolModules: ['./x.mjs'] }],
  ])('refuses %s with ESCALATION', async (_name, request) => {
    const parent = await open({ user: 'alice', sandbox: 'auto' });
    await expect(parent.attenuate(request as never)).rejects.toMatchObject({ code: 'ESCALATION' });
    await parent.close();
  });

  it("keeps the parent's write quota: a child may only lower it", async () => {
    const parent = await open({ limits: { writeQuotaBytes: 10 } });
    await expect(parent.attenuate({ limits: { writeQuotaBytes: 0 } })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ limits: { writeQuotaBytes: 11 } })).rejects.toMatchObject({ code: 'ESCALATION' });
    const child = await parent.attenuate({ limits: { writeQuotaBytes: 5 } });
    expect((await child.call('write_file', { path: 'q.txt', content: '123456' })).code).toBe('WRITE_QUOTA_EXCEEDED');
    expect((await child.call('write_file', { path: 'q.txt', content: '1234' })).isError).toBeUndefined();
    await parent.close();
  });

  it("keeps the parent's excluded paths, re-rooted, in a child rooted below it", async () => {
    const parent = await open({ excludedPaths: ['.git', 'app/secret'] });
    const child = await parent.attenuate({ workspaceRoot: tree.at('app') });
    expect(child.capability.excludedPaths).toEqual(['secret']);
    expect((await child.call('write_file', { path: 'secret/key', content: 'x' })).code).toBe('BLOCKED_PATH');
    expect((await child.call('write_file', { path: 'secret/new', content: 'x' })).code).toBe('BLOCKED_PATH');
    expect((await child.call('write_file', { path: 'src/b.ts', content: 'b' })).isError).toBeUndefined();
    await expect(parent.attenuate({ workspaceRoot: tree.at('app/secret') })).rejects.toMatchObject({ code: 'ESCALATION' });
    expect(fs.readFileSync(tree.at('app/secret/key'), 'utf8')).toBe('k\n');
    await parent.close();
  });

  it('never makes a read-only subtree writable: readRoots: [] keeps a read root inside the workspace', async () => {
    const parent = await open({ readRoots: [tree.at('vendor')] });
    expect((await parent.call('write_file', { path: 'vendor/lib.js', content: 'x' })).code).toBe('BLOCKED_PATH');
    const child = await parent.attenuate({ readRoots: [] });
    expect((await child.call('write_file', { path: 'vendor/lib.js', content: 'x' })).code).toBe('BLOCKED_PATH');
    expect(textOf(await child.call('read_file', { path: 'vendor/lib.js' }))).toContain('lib');
    await expect(parent.attenuate({ workspaceRoot: tree.at('vendor') })).rejects.toMatchObject({ code: 'ESCALATION' });
    expect(fs.readFileSync(tree.at('vendor/lib.js'), 'utf8')).toBe('lib\n');
    await parent.close();
  });

  it("gives a child a token that expires no later than its parent's", async () => {
    const parent = await open({ ttlSeconds: 5 });
    const child = await parent.attenuate({ tools: ['read_file'] });
    expect(expOf(child.token)).toBeLessThanOrEqual(expOf(parent.token));
    expect(child.tokenExpiresAt).toBe(parent.tokenExpiresAt);
    await expect(parent.attenuate({ ttlSeconds: 60 })).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining('ttlSeconds') });
    const shorter = await parent.attenuate({ ttlSeconds: 2 });
    expect(expOf(shorter.token)).toBeLessThanOrEqual(expOf(parent.token));
    await parent.close();
  });

  it("bounds a child of a token-opened session by the token's expiry", async () => {
    const token = await rt.mintToken({ workspaceRoot: tree.root, tools: ['read_file'], ttlSeconds: 5 });
    const parent = await rt.openSession({ token });
    const child = await parent.attenuate({});
    expect(expOf(child.token)).toBeLessThanOrEqual(expOf(token));
    await parent.close();
  });

  it('closing a session closes its children and grandchildren; their calls get SESSION_CLOSED', async () => {
    const parent = await open();
    const child = await parent.attenuate({ tools: ['read_file'] });
    const grandchild = await child.attenuate({});
    const sibling = await parent.attenuate({});
    await sibling.close();
    expect(parent.closed).toBe(false);
    expect(textOf(await grandchild.call('read_file', { path: 'notes.txt' }))).toContain('n');
    await parent.close();
    expect([child.closed, grandchild.closed]).toEqual([true, true]);
    expect((await child.call('read_file', { path: 'notes.txt' })).code).toBe('SESSION_CLOSED');
    expect((await grandchild.call('read_file', { path: 'notes.txt' })).code).toBe('SESSION_CLOSED');
    await expect(child.attenuate({})).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
  });

  it('closes a child whose parent closed while it was opening', async () => {
    const before = rt.sessionCount;
    const parent = await open();
    // The expectation is attached before the close: the refusal may come while close() is still running, and an
    // unobserved rejection then is an unhandled one.
    const refused = expect(parent.attenuate({})).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    await parent.close();
    await refused;
    expect(rt.sessionCount).toBe(before);
  });
});

describe('close', () => {
  it('answers SESSION_CLOSED after close, and close is idempotent', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    await s.close();
    await s.close();
    expect(await s.call('read_file', { path: 'src/a.ts' })).toMatchObject({ isError: true, code: 'SESSION_CLOSED' });
    await expect(s.listTools()).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
  });

  it('closing the runtime closes its sessions and refuses new ones', async () => {
    const local = await createRuntime({ idleWorkers: 1 });
    const s = await local.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    await local.close();
    expect((await s.call('read_file', { path: 'src/a.ts' })).code).toBe('SESSION_CLOSED');
    await expect(local.openSession({ workspaceRoot: ws.root })).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
  });

  it('refuses more sessions than maxSessions', async () => {
    const local = await createRuntime({ idleWorkers: 0, maxSessions: 1 });
    const s = await local.openSession({ workspaceRoot: ws.root });
    await expect(local.openSession({ workspaceRoot: ws.root })).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    await s.close();
    await local.close();
  });
});

describe('concurrency', () => {
  it('serves 32 concurrent sessions, each confined to its own workspace', async () => {
    const trees = Array.from({ length: 32 }, (_, i) => makeTempTree(`tw-c${i}`, { 'id.txt': `session ${i}\n` }));
    try {
      const sessions = await Promise.all(trees.map((tree) => rt.openSession({ workspaceRoot: tree.root, tools: ['read_file', 'write_file'] })));
      const results = await Promise.all(sessions.map(async (s, i) => {
        const own = textOf(await s.call('read_file', { path: 'id.txt' }));
        const other = await s.call('read_file', { path: trees[(i + 1) % 32]!.at('id.txt') });
        const write = await s.call('write_file', { path: 'out.txt', content: `w${i}` });
        return { own, other: other.code, write: write.isError };
      }));
      results.forEach((r, i) => {
        expect(r.own).toContain(`session ${i}`);
        expect(r.other).toBe('NOT_READABLE');
        expect(r.write).toBeUndefined();
      });
      await Promise.all(sessions.map((s) => s.close()));
    } finally {
      trees.forEach((t) => t.cleanup());
    }
  });
});
