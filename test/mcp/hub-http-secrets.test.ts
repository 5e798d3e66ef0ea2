import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createRuntime } from '../../runtime/index.js';
import { McpHub } from '../../runtime/mcp/index.js';
import { createCredentialFetch } from '../../runtime/mcp/credential-fetch.js';
import { userSecretCredentials } from '../../src/mcp/server-credentials.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { textOf } from './helpers.js';

// A per-user MCP server over Streamable HTTP whose headers hold ${user.<secret>} placeholders: the value goes to the
// server's own origin only, and never comes back in a result, an error or the audit.
const SECRET = `mcp-secret-${process.pid}-value`;
const TENANTS = { alice: { mcpServers: ['remote'], secrets: { token: SECRET } } };
const sessions = new Map<string, StreamableHTTPServerTransport>();
const seenByServer: IncomingHttpHeaders[] = [];
const seenByOther: IncomingHttpHeaders[] = [];
let mcp: Server;
let other: Server;
let mcpOrigin = '';
let otherOrigin = '';
let ws: TempTree;

function createMcpServer(): McpServer {
  const server = new McpServer({ name: 'secret-echo', version: '1.0.0' });
  server.registerTool('whoami', {}, (extra) => ({ content: [{ type: 'text', text: `you sent ${String(extra.requestInfo?.headers['authorization'])} and ${String(extra.requestInfo?.headers['x-api-key'])}` }] }));
  return server;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  ws = makeTempTree('tw-mcp-secrets', {});
  mcp = createServer((req, res) => {
    seenByServer.push(req.headers);
    if (req.url === '/echo-error') {
      // A server that quotes the credential back in an error body.
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`bad credential ${String(req.headers['authorization'])}`);
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(307, { location: `${otherOrigin}/mcp` }).end();
      return;
    }
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, transport) });
    void createMcpServer().connect(transport).then(() => transport.handleRequest(req, res));
  });
  other = createServer((req, res) => {
    seenByOther.push(req.headers);
    res.writeHead(404).end();
  });
  mcpOrigin = await listen(mcp);
  otherOrigin = await listen(other);
});

afterAll(async () => {
  await Promise.all([...sessions.values()].map((transport) => transport.close()));
  for (const server of [mcp, other]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  ws.cleanup();
});

const HEADERS = { authorization: 'Bearer ${user.token}', 'x-api-key': '${user.token}' };

describe('per-user MCP over HTTP: the secret reaches the server, never the results', () => {
  it('the server receives the value; a tool echoing it returns the placeholder', async () => {
    const hub = new McpHub({ remote: { url: `${mcpOrigin}/mcp`, headers: HEADERS, perUser: true } }, TENANTS);
    try {
      const result = await hub.callTool('remote', 'whoami', {}, 'alice');
      expect(seenByServer.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
      expect(seenByServer.at(-1)?.['x-api-key']).toBe(SECRET);
      expect(textOf(result)).toBe('you sent Bearer ${user.token} and ${user.token}');
      expect(JSON.stringify(result)).not.toContain(SECRET);
    } finally {
      await hub.close();
    }
  });

  it('an error quoting the value names the placeholder instead', async () => {
    const hub = new McpHub({ remote: { url: `${mcpOrigin}/echo-error`, headers: HEADERS, perUser: true } }, TENANTS);
    try {
      const failure = await hub.listTools('remote', 'alice').catch((error: unknown) => error as Error);
      expect(failure).toMatchObject({ code: 'MCP_ERROR' });
      expect(String((failure as Error).message)).toContain('bad credential Bearer ${user.token}');
      expect(String((failure as Error).message)).not.toContain(SECRET);
    } finally {
      await hub.close();
    }
  });

  it('a redirect to another origin carries no secret there', async () => {
    const hub = new McpHub({ remote: { url: `${mcpOrigin}/moved`, headers: HEADERS, perUser: true } }, TENANTS);
    try {
      await expect(hub.listTools('remote', 'alice')).rejects.toMatchObject({ code: 'MCP_ERROR' });
      expect(JSON.stringify(seenByOther)).not.toContain(SECRET);
    } finally {
      await hub.close();
    }
  });

  it('the audit of a session calling the tool never holds the value', async () => {
    const events: AuditEvent[] = [];
    const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', audit: { callback: (event: AuditEvent) => void events.push(event), full: true }, mcpServers: { remote: { url: `${mcpOrigin}/mcp`, headers: HEADERS, perUser: true } }, tenants: TENANTS });
    try {
      const s = await rt.openSession({ workspaceRoot: ws.root, user: 'alice', mcpServers: ['remote'] });
      const result = await s.call('mcp__remote__whoami', {});
      expect(textOf(result)).toContain('${user.token}');
      await s.close();
      expect(events.some((e) => e.tool === 'mcp__remote__whoami')).toBe(true);
      expect(JSON.stringify(events)).not.toContain(SECRET);
    } finally {
      await rt.close();
    }
  });
});

describe('${user.<secret>} through createCredentialFetch: placeholders are filled for the server origin only', () => {
  it.each<[string, () => string, RequestInit['redirect'] | undefined, 'value' | 'none']>([
    ['the server origin', () => `${mcpOrigin}/mcp`, undefined, 'value'],
    ['another port of the same host', () => `${otherOrigin}/mcp`, undefined, 'none'],
    ['the same port under another host name', () => `${mcpOrigin.replace('127.0.0.1', 'localhost')}/mcp`, undefined, 'none'],
    ['a redirect from the server to another origin, even asked to follow', () => `${mcpOrigin}/moved`, 'follow', 'none'],
  ])('%s', async (_name, target, redirect, expected) => {
    const secretFetch = createCredentialFetch(userSecretCredentials(new URL(`${mcpOrigin}/mcp`), { token: SECRET }));
    const before = { server: seenByServer.length, other: seenByOther.length };
    const response = await secretFetch(target(), { method: 'POST', headers: HEADERS, body: '{}', ...(redirect === undefined ? {} : { redirect }) });
    await response.body?.cancel();
    const sent = [...seenByServer.slice(before.server), ...seenByOther.slice(before.other)];
    const sentToOther = seenByOther.slice(before.other);
    if (expected === 'value') expect(sent.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.stringify(sentToOther)).not.toContain(SECRET);
    if (expected === 'none') expect(JSON.stringify(sent.filter((h) => h.host !== new URL(mcpOrigin).host))).not.toContain(SECRET);
    // Elsewhere a header holding a placeholder is dropped, not sent with the placeholder's name.
    for (const headers of sentToOther) expect(headers['x-api-key']).toBeUndefined();
  });
});
