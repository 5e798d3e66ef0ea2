import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpHub } from '../../runtime/mcp/index.js';
import { childPids, testServer, textOf, trackHubs, TEST_SERVER } from './helpers.js';

const track = trackHubs();

describe('McpHub over stdio', () => {
  it('lists tools with schemas and calls them', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const tools = await hub.listTools('t');
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add', 'list_a', 'list_b', 'whoami', 'crash', 'grow']));
    expect(tools.find((tool) => tool.name === 'add')).toMatchObject({ description: 'Adds two numbers', inputSchema: { type: 'object', required: ['a', 'b'] } });
    expect(textOf(await hub.callTool('t', 'echo', { text: 'hi' }))).toBe('hi');
    expect(await hub.callTool('t', 'add', { a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
  });

  it('shares one connection (one process) between callers of a shared server', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const [a, b] = await Promise.all([hub.callTool('t', 'pid', {}), hub.callTool('t', 'pid', {}, 'someone')]);
    expect(textOf(a ?? { content: [] })).toBe(textOf(b ?? { content: [] }));
  });

  it.each([
    ['a tool-level isError passes through without a code', 'fail', {}, { isError: true, code: undefined, text: 'no such issue' }],
    ['invalid arguments come back as an isError result', 'add', { a: 'x' }, { isError: true, code: undefined, text: /Input validation error/ }],
    ['an unknown tool is an isError result', 'nope', {}, { isError: true, code: undefined, text: /Tool nope not found/ }],
  ])('%s', async (_name, tool, args, expected) => {
    const hub = track(new McpHub({ t: testServer() }));
    const result = await hub.callTool('t', tool, args);
    expect(result.isError).toBe(expected.isError);
    expect(result.code).toBe(expected.code);
    expect(textOf(result)).toMatch(expected.text);
  });

  it('refuses an unknown server with TOOL_NOT_ALLOWED as a result', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const result = await hub.callTool('other', 'echo', { text: 'x' });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    expect(textOf(result)).toContain("unknown MCP server 'other' (configured: t)");
  });

  it('passes only the SDK default env plus the config env to the child, not the host secrets', async () => {
    process.env['TOOLWARDEN_HOST_SECRET'] = 'host-secret';
    try {
      const hub = track(new McpHub({ t: testServer({ env: { TOKEN: 'shared-token' } }) }));
      expect(textOf(await hub.callTool('t', 'whoami', {}))).toBe('shared-token');
      expect(textOf(await hub.callTool('t', 'whoami', { name: 'TOOLWARDEN_HOST_SECRET' }))).toBe('(unset)');
      expect(textOf(await hub.callTool('t', 'whoami', { name: 'PATH' }))).toBe(process.env['PATH']);
    } finally {
      delete process.env['TOOLWARDEN_HOST_SECRET'];
    }
  });

  it('reconnects on the next call after the server crashed mid-call', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const firstPid = textOf(await hub.callTool('t', 'pid', {}));
    const crashed = await hub.callTool('t', 'crash', {});
    expect(crashed).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(crashed)).toMatch(/MCP server 't' failed on tool 'crash': .*Connection closed/);
    const secondPid = textOf(await hub.callTool('t', 'pid', {}));
    expect(secondPid).toMatch(/^\d+$/);
    expect(secondPid).not.toBe(firstPid);
    expect(textOf(await hub.callTool('t', 'echo', { text: 'back' }))).toBe('back');
  });

  it.each([
    ['a command that does not exist', { command: '/nonexistent/mcp-server-xyz' }, /MCP server 'bad' failed to start: .*ENOENT/],
    ['a server that exits before answering', { command: process.execPath, args: [TEST_SERVER, '--fail'] }, /MCP server 'bad' failed to start: .*Connection closed; last stderr lines:\nloading config\nfatal: config file \/nowhere\.json is missing/],
  ])('a server that fails to start (%s) gives MCP_ERROR naming it, and another server still works', async (_name, bad, message) => {
    const hub = track(new McpHub({ bad, good: testServer() }));
    await expect(hub.listTools('bad')).rejects.toMatchObject({ code: 'MCP_ERROR', message: expect.stringMatching(message) });
    const result = await hub.callTool('bad', 'echo', { text: 'x' });
    expect(result).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(result)).toMatch(message);
    expect(textOf(await hub.callTool('good', 'echo', { text: 'still here' }))).toBe('still here');
  });

  it('does not cache a failed start: the next call tries again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwarden-mcp-'));
    try {
      const cwd = join(dir, 'created-later');
      const hub = track(new McpHub({ t: { ...testServer(), cwd } }));
      expect(await hub.callTool('t', 'echo', { text: 'x' })).toMatchObject({ isError: true, code: 'MCP_ERROR' });
      mkdirSync(cwd);
      expect(textOf(await hub.callTool('t', 'echo', { text: 'now' }))).toBe('now');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() during a connect leaves no child behind', async () => {
    const hub = new McpHub({ t: testServer() });
    const pending = hub.listTools('t');
    await hub.close();
    await expect(pending).rejects.toMatchObject({ code: 'MCP_ERROR' });
    expect(childPids(TEST_SERVER)).toEqual([]);
  });

  it('refreshes the cached tool list on notifications/tools/list_changed and tells listeners', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const changes: [string, string | undefined][] = [];
    hub.onToolsChanged((serverId, user) => changes.push([serverId, user]));
    const before = await hub.listTools('t');
    expect(before.map((tool) => tool.name)).not.toContain('extra_1');
    expect(textOf(await hub.callTool('t', 'grow', {}))).toBe('added extra_1');
    const after = await hub.listTools('t');
    expect(after.map((tool) => tool.name)).toContain('extra_1');
    expect(changes).toContainEqual(['t', undefined]);
    expect(textOf(await hub.callTool('t', 'extra_1', {}))).toBe('extra 1');
  });

  it('ends a call at its timeout with TIMEOUT and keeps the connection', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const pid = textOf(await hub.callTool('t', 'pid', {}));
    const result = await hub.callTool('t', 'slow', { ms: 5_000 }, undefined, undefined, 100);
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(textOf(result)).toContain("MCP tool 'slow' of server 't' did not answer in time");
    expect(textOf(await hub.callTool('t', 'pid', {}))).toBe(pid);
  });

  it('ends a call when its signal aborts', async () => {
    const hub = track(new McpHub({ t: testServer() }));
    const controller = new AbortController();
    const pending = hub.callTool('t', 'slow', { ms: 5_000 }, undefined, controller.signal);
    await hub.listTools('t');
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, code: 'MCP_ERROR', content: [{ text: expect.stringContaining('was cancelled') }] });
    expect(textOf(await hub.callTool('t', 'echo', { text: 'ok' }))).toBe('ok');
  });

  it('close() ends every child process, including per-user ones, and later calls fail', async () => {
    const hub = new McpHub({ shared: testServer(), mine: testServer({ perUser: true }) });
    const pids = [
      textOf(await hub.callTool('shared', 'pid', {})),
      textOf(await hub.callTool('mine', 'pid', {}, 'alice')),
      textOf(await hub.callTool('mine', 'pid', {}, 'bob')),
    ].map(Number);
    expect(new Set(pids).size).toBe(3);
    expect(childPids(TEST_SERVER)).toEqual(expect.arrayContaining(pids));
    await hub.close();
    expect(childPids(TEST_SERVER)).toEqual([]);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(await hub.callTool('shared', 'pid', {})).toMatchObject({ isError: true, code: 'MCP_ERROR' });
  });
});
