import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpHub } from '../../runtime/mcp/index.js';
import { textOf, trackHubs } from './helpers.js';

// The same bounds over Streamable HTTP, answered as one JSON body or as an event stream: a body past the bound is cut
// off, not buffered, and a result past maxResultBytes is named.
const MiB = 1024 * 1024;
const LIMITS = { maxResultBytes: MiB };
const track = trackHubs();
const sessions = new Map<string, StreamableHTTPServerTransport>();
let http: Server;
let origin = '';

beforeAll(async () => {
  http = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const server = new McpServer({ name: 'big-http', version: '1.0.0' });
    server.registerTool('big', { inputSchema: { bytes: z.number() } }, ({ bytes }) => ({ content: [{ type: 'text', text: 'b'.repeat(bytes) }] }));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: req.url === '/json',
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all([...sessions.values()].map((transport) => transport.close()));
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe.each([
  ['JSON responses', '/json'],
  ['event-stream responses', '/sse'],
])('an HTTP MCP server with %s is bounded', (_name, path) => {
  it('a message far past maxResultBytes is cut off with MCP_ERROR naming it; the next call reconnects', async () => {
    const hub = track(new McpHub({ remote: { url: `${origin}${path}`, limits: LIMITS } }));
    const result = await hub.callTool('remote', 'big', { bytes: 8 * MiB });
    expect(result).toMatchObject({ isError: true, code: 'MCP_ERROR' });
    expect(textOf(result)).toMatch(/sent a message of more than 2097152 bytes, past limits\.maxResultBytes \(1048576\)/);
    expect(textOf(await hub.callTool('remote', 'big', { bytes: 3 }))).toBe('bbb');
  });

  it('a result just past maxResultBytes is named as such', async () => {
    const hub = track(new McpHub({ remote: { url: `${origin}${path}`, limits: LIMITS } }));
    expect(textOf(await hub.callTool('remote', 'big', { bytes: 1.5 * MiB }))).toMatch(/tool 'big' returned \d+ bytes, past limits\.maxResultBytes/);
  });

  it('near miss: a result under maxResultBytes comes back whole', async () => {
    const hub = track(new McpHub({ remote: { url: `${origin}${path}`, limits: LIMITS } }));
    expect(textOf(await hub.callTool('remote', 'big', { bytes: 1000 * 1000 }))).toHaveLength(1000 * 1000);
  });
});
