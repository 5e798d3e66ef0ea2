import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createRuntime } from '../../runtime/index.js';
import { McpHub } from '../../runtime/mcp/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { textOf } from './helpers.js';

// A per-user MCP server over Streamable HTTP whose headers name a session credential (`${credential.NAME}`): the
// session's value goes to the server when its url is one of the credential's hosts, to nowhere else, and never comes
// back in a result, a listing, an error or the audit. Sessions share a connection only with the same credential.
const SECRET = `mcp-cred-${process.pid}-S3cr3t/v+1`;
const OTHER_SECRET = `mcp-cred-${process.pid}-0ther/v+2`;
const sessions = new Map<string, StreamableHTTPServerTransport>();
const seenByServer: IncomingHttpHeaders[] = [];
const seenByOther: IncomingHttpHeaders[] = [];
let mcp: Server;
let other: Server;
let mcpHost = '';
let otherHost = '';
let ws: TempTree;

function createMcpServer(): McpServer {
  const server = new McpServer({ name: 'credential-echo', version: '1.0.0' });
  // A tool named after the value's encoded form and a description quoting it: listings are masked too.
  server.registerTool('whoami', { description: `called with ${Buffer.from(SECRET).toString('base64')}` }, (extra) => ({
    content: [{ type: 'text', text: `you sent ${String(extra.requestInfo?.headers['authorization'])} ${encodeURIComponent(String(extra.requestInfo?.headers['authorization']))}` }],
  }));
  return server;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  ws = makeTempTree('tw-mcp-credentials', {});
  mcp = createServer((req, res) => {
    seenByServer.push(req.headers);
    if (req.url === '/echo-error') {
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`bad credential ${String(req.headers['authorization'])}`);
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(307, { location: `http://${otherHost}/mcp` }).end();
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
  mcpHost = await listen(mcp);
  otherHost = await listen(other);
});

afterAll(async () => {
  await Promise.all([...sessions.values()].map((transport) => transport.close()));
  for (const server of [mcp, other]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  ws.cleanup();
});

const HEADERS = { authorization: 'Bearer ${credential.API_TOKEN}' };
const TENANTS = { alice: { mcpServers: ['remote'] }, bob: { mcpServers: ['remote'] } };
const remote = (path = '/mcp'): { remote: { url: string; headers: typeof HEADERS; perUser: true } } => ({ remote: { url: `http://${mcpHost}${path}`, headers: HEADERS, perUser: true } });
const credential = (value = SECRET, hosts = [mcpHost]): { API_TOKEN: { value: string; hosts: string[] } } => ({ API_TOKEN: { value, hosts } });
const sentValues = (): string[] => seenByServer.map((headers) => String(headers['authorization']));

describe('an HTTP MCP server naming a session credential', () => {
  it('the server receives the value; what comes back (result, listing) holds the reference instead', async () => {
    const hub = new McpHub(remote(), TENANTS);
    try {
      const tools = await hub.listTools('remote', 'alice', undefined, credential());
      const result = await hub.callTool('remote', 'whoami', {}, 'alice', undefined, undefined, credential());
      expect(seenByServer.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
      expect(textOf(result)).toBe('you sent Bearer ${credential.API_TOKEN} Bearer%20${credential.API_TOKEN}');
      for (const leak of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64')]) {
        expect(JSON.stringify([tools, result])).not.toContain(leak);
      }
    } finally {
      await hub.close();
    }
  });

  it('an error quoting the value names the reference instead', async () => {
    const hub = new McpHub(remote('/echo-error'), TENANTS);
    try {
      const failure = await hub.listTools('remote', 'alice', undefined, credential()).catch((error: unknown) => error as Error);
      expect(failure).toMatchObject({ code: 'MCP_ERROR' });
      expect(String((failure as Error).message)).toContain('bad credential Bearer ${credential.API_TOKEN}');
      expect(String((failure as Error).message)).not.toContain(SECRET);
    } finally {
      await hub.close();
    }
  });

  it.each([
    ['another port of the same address', (): string[] => [otherHost]],
    ['another name for the same address', (): string[] => [mcpHost.replace('127.0.0.1', 'localhost')]],
    ['a wildcard of a look-alike domain', (): string[] => ['*.127.0.0.1.nip.test']],
  ])('a server url outside the credential\'s hosts (%s) is refused before anything is sent', async (_name, hosts) => {
    const hub = new McpHub(remote(), TENANTS);
    const before = seenByServer.length;
    try {
      await expect(hub.listTools('remote', 'alice', undefined, credential(SECRET, hosts()))).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/not one of credential 'API_TOKEN''s hosts/) });
      expect(seenByServer.length).toBe(before);
    } finally {
      await hub.close();
    }
  });

  it('a redirect to another origin, even one of the credential\'s hosts, carries no value there', async () => {
    const hub = new McpHub(remote('/moved'), TENANTS);
    try {
      await expect(hub.listTools('remote', 'alice', undefined, credential(SECRET, [mcpHost, otherHost]))).rejects.toMatchObject({ code: 'MCP_ERROR' });
      expect(JSON.stringify(seenByOther)).not.toContain(SECRET);
    } finally {
      await hub.close();
    }
  });

  it('a session without the credential is refused, naming it; nothing is sent', async () => {
    const hub = new McpHub(remote(), TENANTS);
    const before = seenByServer.length;
    try {
      await expect(hub.listTools('remote', 'alice')).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/names credential 'API_TOKEN', which this session does not have/) });
      expect(seenByServer.length).toBe(before);
    } finally {
      await hub.close();
    }
  });

  it('sessions of one user with different values get a connection each; the same value shares one', async () => {
    const hub = new McpHub(remote(), TENANTS);
    try {
      await hub.callTool('remote', 'whoami', {}, 'alice', undefined, undefined, credential(SECRET));
      const afterFirst = seenByServer.length;
      await hub.callTool('remote', 'whoami', {}, 'alice', undefined, undefined, credential(SECRET));
      // One more request (the call itself): the connection was reused, no new initialize.
      expect(sentValues().slice(afterFirst)).toEqual([`Bearer ${SECRET}`]);
      const afterSecond = seenByServer.length;
      await hub.callTool('remote', 'whoami', {}, 'alice', undefined, undefined, credential(OTHER_SECRET));
      const third = sentValues().slice(afterSecond);
      expect(third.length).toBeGreaterThan(1);
      expect(new Set(third)).toEqual(new Set([`Bearer ${OTHER_SECRET}`]));
    } finally {
      await hub.close();
    }
  });

  it('a config function\'s headers may name it too, filled and masked the same way', async () => {
    const hub = new McpHub({ remote: () => ({ url: `http://${mcpHost}/mcp`, headers: HEADERS, perUser: true }) }, TENANTS);
    try {
      const result = await hub.callTool('remote', 'whoami', {}, 'alice', undefined, undefined, credential());
      expect(seenByServer.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
      expect(textOf(result)).toContain('Bearer ${credential.API_TOKEN}');
      expect(JSON.stringify(result)).not.toContain(SECRET);
      await expect(hub.listTools('remote', 'alice')).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    } finally {
      await hub.close();
    }
  });

  it('another user with the same value gets a connection of their own', async () => {
    const hub = new McpHub(remote(), TENANTS);
    try {
      await hub.callTool('remote', 'whoami', {}, 'alice', undefined, undefined, credential());
      const afterAlice = seenByServer.length;
      await hub.callTool('remote', 'whoami', {}, 'bob', undefined, undefined, credential());
      // initialize, initialized, tools/list and the call: a new connection.
      expect(seenByServer.length - afterAlice).toBeGreaterThan(1);
    } finally {
      await hub.close();
    }
  });
});

describe('sessions of a runtime: the credential configured once on the session', () => {
  it('reaches the MCP server, never the audit; a child that dropped it cannot use the user\'s connection', async () => {
    const events: AuditEvent[] = [];
    const rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', audit: { callback: (event: AuditEvent) => void events.push(event), full: true }, mcpServers: remote(), tenants: TENANTS });
    try {
      const s = await rt.openSession({ workspaceRoot: ws.root, user: 'alice', mcpServers: ['remote'], credentials: credential() });
      expect((await s.listTools()).map((tool) => tool.name)).toContain('mcp__remote__whoami');
      const result = await s.call('mcp__remote__whoami', {});
      expect(textOf(result)).toContain('Bearer ${credential.API_TOKEN}');
      expect(seenByServer.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
      const child = await s.attenuate({ credentials: [] });
      const before = seenByServer.length;
      const refused = await child.call('mcp__remote__whoami', {});
      expect(refused).toMatchObject({ isError: true, code: 'INVALID_OPTIONS' });
      expect(textOf(refused)).toMatch(/names credential 'API_TOKEN', which this session does not have/);
      expect(seenByServer.length).toBe(before);
      await s.close();
      expect(events.some((e) => e.tool === 'mcp__remote__whoami')).toBe(true);
      expect(JSON.stringify(events)).not.toContain(SECRET);
    } finally {
      await rt.close();
    }
  });
});
