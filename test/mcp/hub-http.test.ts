import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpHub } from '../../runtime/mcp/index.js';
import { textOf } from './helpers.js';

const sessions = new Map<string, StreamableHTTPServerTransport>();
let http: Server;
let url: string;

function createMcpServer(): McpServer {
  const server = new McpServer({ name: 'toolwarden-http-test', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  // Reversed: results have the user's secrets redacted, so the test reads which one arrived without quoting it.
  server.registerTool('whoami', {}, (extra) => ({ content: [{ type: 'text', text: [...String(extra.requestInfo?.headers['authorization'] ?? '(none)')].reverse().join('') }] }));
  return server;
}

beforeAll(async () => {
  http = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = sessions.get(id);
      if (!transport) {
        res.writeHead(404).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      void transport.handleRequest(req, res);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    void createMcpServer()
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await Promise.all([...sessions.values()].map((transport) => transport.close()));
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe('McpHub over Streamable HTTP', () => {
  it('lists and calls tools, with per-user headers filled from each user’s secrets', async () => {
    const hub = new McpHub(
      { remote: { url, headers: { authorization: 'Bearer ${user.token}' }, perUser: true } },
      { alice: { mcpServers: ['remote'], secrets: { token: 'tA' } }, bob: { mcpServers: ['remote'], secrets: { token: 'tB' } } },
    );
    try {
      expect((await hub.listTools('remote', 'alice')).map((tool) => tool.name).sort()).toEqual(['echo', 'whoami']);
      const [a, b] = await Promise.all([hub.callTool('remote', 'whoami', {}, 'alice'), hub.callTool('remote', 'whoami', {}, 'bob')]);
      expect(textOf(a ?? { content: [] })).toBe('At reraeB');
      expect(textOf(b ?? { content: [] })).toBe('Bt reraeB');
      expect(textOf(await hub.callTool('remote', 'echo', { text: 'over http' }, 'alice'))).toBe('over http');
    } finally {
      await hub.close();
    }
  });

  it('reconnects on the next call after the server lost the session', async () => {
    const hub = new McpHub({ remote: { url } });
    try {
      expect(textOf(await hub.callTool('remote', 'echo', { text: 'one' }))).toBe('one');
      sessions.clear();
      expect(await hub.callTool('remote', 'echo', { text: 'lost' })).toMatchObject({ isError: true, code: 'MCP_ERROR' });
      expect(textOf(await hub.callTool('remote', 'echo', { text: 'two' }))).toBe('two');
    } finally {
      await hub.close();
    }
  });

  it('gives MCP_ERROR naming the server when nothing listens', async () => {
    const hub = new McpHub({ down: { url: 'http://127.0.0.1:1/mcp' } });
    try {
      await expect(hub.listTools('down')).rejects.toMatchObject({ code: 'MCP_ERROR', message: expect.stringContaining("MCP server 'down' failed to start") });
    } finally {
      await hub.close();
    }
  });
});
