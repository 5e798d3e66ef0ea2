import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../runtime/serve/http/serve-http.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const TEST_SERVER = fileURLToPath(new URL('../fixtures/mcp/test-server.mjs', import.meta.url));
const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef';

let home: TempTree;
let server: HttpServeHandle;
const logs: string[] = [];
const clients: Client[] = [];

function configFor(idleTimeoutMs: number) {
  return parseServeConfig(
    {
      mcpServers: { t: { command: process.execPath, args: [TEST_SERVER] } },
      tenants: {
        alice: { workspaceRoot: 'alice', tools: ['read_file', 'grep'], mcpServers: ['t:echo'], maxSessions: 2 },
        bob: { workspaceRoot: 'bob', tools: ['read_file', 'list_dir'] },
      },
      tokens: { [ALICE]: 'alice', [BOB]: 'bob' },
      sandbox: 'off',
      idleTimeoutMs,
    },
    home.root,
  );
}

async function connect(token: string, url = server.url): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** Ends an MCP session the way a well-behaved client does: DELETE, then close. */
async function disconnect(...connections: { client: Client; transport: StreamableHTTPClientTransport }[]): Promise<void> {
  await Promise.all(connections.map(async ({ client, transport }) => {
    await transport.terminateSession();
    await client.close();
  }));
}

const textOf = (result: object): string => ((('content' in result ? result.content : undefined) ?? []) as { text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  home = makeTempTree('tw-serve-http', { 'alice/plan.md': 'alice plan\n', 'bob/todo.md': 'bob todo\n' });
  server = await startHttpServer({ config: configFor(60_000), port: 0, log: (line) => logs.push(line) });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server?.close();
  home.cleanup();
});

describe('toolwarden serve --http', () => {
  it('binds 127.0.0.1 by default', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('gives two users their own tools and workspaces side by side', async () => {
    const [alice, bob] = await Promise.all([connect(ALICE), connect(BOB)]);
    expect((await alice.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['grep', 'mcp__t__echo', 'read_file']);
    expect((await bob.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['list_dir', 'read_file']);
    expect(textOf(await alice.client.callTool({ name: 'read_file', arguments: { path: 'plan.md' } }))).toContain('alice plan');
    expect(textOf(await bob.client.callTool({ name: 'read_file', arguments: { path: 'todo.md' } }))).toContain('bob todo');
    const crossRead = await bob.client.callTool({ name: 'read_file', arguments: { path: home.at('alice/plan.md') } });
    expect(crossRead).toMatchObject({ isError: true, structuredContent: { code: 'NOT_READABLE' } });
    await expect(bob.client.callTool({ name: 'grep', arguments: { pattern: 'x' } })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool: grep/) });
    await disconnect(alice, bob);
  });

  it('passes MCP calls through only for the user whose tenant allows the server', async () => {
    const [alice, bob] = await Promise.all([connect(ALICE), connect(BOB)]);
    expect(await alice.client.callTool({ name: 'mcp__t__echo', arguments: { text: 'hi alice' } })).toMatchObject({ content: [{ type: 'text', text: 'hi alice' }] });
    await expect(bob.client.callTool({ name: 'mcp__t__echo', arguments: { text: 'hi bob' } })).rejects.toMatchObject({ code: -32602 });
    await disconnect(alice, bob);
  });

  it.each([
    ['no Authorization header', undefined, 'missing bearer token'],
    ['an unknown token', `Bearer ${'x'.repeat(24)}`, 'unknown bearer token'],
    ['another scheme', `Basic ${ALICE}`, 'missing bearer token'],
  ])('answers 401 with a JSON-RPC error body for %s, before any MCP handling', async (_name, authorization, message) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (authorization !== undefined) headers['authorization'] = authorization;
    const before = server.sessionCount;
    const res = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining(message) }, id: null });
    expect(server.sessionCount).toBe(before);
  });

  it('closes the session when the client terminates it, and forgets its id', async () => {
    const { client, transport } = await connect(BOB);
    await client.listTools();
    const id = transport.sessionId!;
    expect(server.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(server.sessionCount).toBe(0);
    expect(logs.some((line) => line.includes(`session ${id} of bob closed`))).toBe(true);
    const res = await fetch(server.url, { method: 'POST', headers: mcpHeaders(BOB, id), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(res.status).toBe(404);
  });

  it("does not let one user drive another user's session", async () => {
    const alice = await connect(ALICE);
    const res = await fetch(server.url, { method: 'POST', headers: mcpHeaders(BOB, alice.transport.sessionId!), body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
    expect(res.status).toBe(404);
    expect((await alice.client.listTools()).tools.length).toBeGreaterThan(0);
    await disconnect(alice);
  });

  it("refuses a user's session past their tenant's maxSessions", async () => {
    const open = await Promise.all([connect(ALICE), connect(ALICE)]);
    await expect(connect(ALICE)).rejects.toThrow(/SESSION_LIMIT/);
    await disconnect(...open);
    await disconnect(await connect(ALICE));
  });
});

describe('idle timeout', () => {
  it('closes a session nobody uses', async () => {
    const idle = await startHttpServer({ config: configFor(200), port: 0, log: () => undefined });
    try {
      const { client } = await connect(BOB, idle.url);
      await client.listTools();
      expect(idle.sessionCount).toBe(1);
      await vi.waitFor(() => expect(idle.sessionCount).toBe(0), { timeout: 10_000, interval: 50 });
    } finally {
      await idle.close();
    }
  });
});

function mcpHeaders(token: string, sessionId: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'mcp-session-id': sessionId,
    'mcp-protocol-version': '2025-06-18',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
}
