import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../runtime/serve/http/serve-http.js';
import { normalizeOrigin } from '../../runtime/serve/http/origin-guard.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const TOKEN = 'dora-token-0123456789abcdef';
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'origin-test', version: '1' } } });

let home: TempTree;
let server: HttpServeHandle;
let port: number;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real request with exactly these headers (fetch would not let a test set Host). */
function send(url: string, headers: Record<string, string>, body = INITIALIZE, method = 'POST', urlPath = '/mcp'): Promise<Reply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname.replace(/^\[(.*)\]$/, '$1'), port: target.port, path: urlPath, method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  home = makeTempTree('tw-serve-origin', { 'ws/a.txt': 'a\n' });
  const config = parseServeConfig({ tenants: { dora: { workspaceRoot: 'ws', tools: ['read_file'] } }, tokens: { [TOKEN]: 'dora' }, sandbox: 'off' }, home.root);
  server = await startHttpServer({ config, port: 0, log: () => undefined, allowedOrigins: ['http://app.example:5173', 'https://ide.example'] });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
  home.cleanup();
});

const auth = { authorization: `Bearer ${TOKEN}` };

describe('serve --http refuses DNS rebinding: the Host of a loopback server must be a loopback name with its port', () => {
  it.each<[string, (p: number) => string]>([
    ['a foreign name', () => 'evil.example.com'],
    ['a foreign name with the right port', (p) => `evil.example.com:${p}`],
    ['a name that resolves to loopback elsewhere', (p) => `127.0.0.1.nip.io:${p}`],
    ['localhost with a trailing dot', (p) => `localhost.:${p}`],
    ['a loopback name with another port', (p) => `localhost:${p + 1}`],
    ['a loopback address without the port', () => '127.0.0.1'],
    ['userinfo smuggling', (p) => `127.0.0.1:${p}@evil.example.com`],
    ['a private address', (p) => `10.0.0.1:${p}`],
    ['a subdomain of localhost', (p) => `a.localhost.evil:${p}`],
  ])('answers 403 with a JSON-RPC error for %s, before authentication', async (_name, host) => {
    for (const headers of [{ host: host(port) }, { host: host(port), ...auth }, { host: host(port), origin: `http://${host(port)}`, ...auth }]) {
      const reply = await send(server.url, headers);
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/^Forbidden: Host header '.*' is not this loopback server .*DNS rebinding/) }, id: null });
      expect(reply.headers['mcp-session-id']).toBeUndefined();
    }
    expect(server.sessionCount).toBe(0);
  });

  it('refuses a foreign Host on any path, not only /mcp', async () => {
    expect((await send(server.url, { host: 'evil.example.com' }, '', 'GET', '/elsewhere')).status).toBe(403);
    expect((await send(server.url, { host: `127.0.0.1:${port}` }, '', 'GET', '/elsewhere')).status).toBe(404);
  });

  it.each<[string, (p: number) => string]>([
    ['127.0.0.1', (p) => `127.0.0.1:${p}`],
    ['localhost', (p) => `localhost:${p}`],
    ['LOCALHOST in capitals', (p) => `LOCALHOST:${p}`],
    ['[::1]', (p) => `[::1]:${p}`],
  ])('lets the near miss through: Host %s with the port reaches authentication, and with a token opens a session', async (_name, host) => {
    const unauthenticated = await send(server.url, { host: host(port) });
    expect(unauthenticated.status).toBe(401);
    const reply = await send(server.url, { host: host(port), origin: `http://${host(port)}`, ...auth });
    expect(reply.status).toBe(200);
    const sessionId = reply.headers['mcp-session-id'] as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // The conformance scenario's second step: the initialized notification is accepted too.
    const initialized = await send(server.url, { host: host(port), origin: `http://${host(port)}`, ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(initialized.status).toBe(202);
    expect((await send(server.url, { host: host(port), ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, '', 'DELETE')).status).toBe(200);
  });
});

describe('serve --http refuses foreign origins', () => {
  it.each<[string, (p: number) => string]>([
    ['another site', () => 'http://evil.example.com'],
    ['the opaque origin', () => 'null'],
    ['localhost on another port', (p) => `http://localhost:${p + 1}`],
    ['https on the server port', (p) => `https://localhost:${p}`],
    ['an allowed origin on another port', () => 'http://app.example:5174'],
    ['an allowed https origin over http', () => 'http://ide.example'],
    ['not a URL', () => 'evil'],
  ])('answers 403 for Origin: %s, even with a valid Host and token', async (_name, origin) => {
    const reply = await send(server.url, { host: `127.0.0.1:${port}`, origin: origin(port), ...auth });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/^Forbidden: Origin '.*' is not allowed/) }, id: null });
    expect(server.sessionCount).toBe(0);
  });

  it.each<[string, (p: number) => Record<string, string>]>([
    ['no Origin (a non-browser client)', () => ({})],
    ['its own origin', (p) => ({ origin: `http://127.0.0.1:${p}` })],
    ['a configured origin', () => ({ origin: 'http://app.example:5173' })],
    ['a configured origin spelled in capitals', () => ({ origin: 'HTTP://APP.EXAMPLE:5173' })],
    ['a configured https origin with its default port', () => ({ origin: 'https://ide.example:443' })],
  ])('accepts %s', async (_name, headers) => {
    const reply = await send(server.url, { host: `127.0.0.1:${port}`, ...headers(port), ...auth });
    expect(reply.status).toBe(200);
    const sessionId = reply.headers['mcp-session-id'] as string;
    expect((await send(server.url, { host: `127.0.0.1:${port}`, ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, '', 'DELETE')).status).toBe(200);
  });

  it.each(['evil.example', 'http://app.example/path', 'ftp://app.example', 'http://u:p@app.example', 'http://app.example?x=1'])('refuses allowedOrigins entry %s at start', async (entry) => {
    const config = parseServeConfig({ tenants: { dora: { workspaceRoot: 'ws' } }, tokens: { [TOKEN]: 'dora' }, sandbox: 'off' }, home.root);
    await expect(startHttpServer({ config, port: 0, log: () => undefined, allowedOrigins: [entry] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining(`allowedOrigins entry '${entry}'`) });
  });

  it('normalizes an allowed origin to the form browsers send', () => {
    expect(normalizeOrigin('HTTP://App.Example:80/')).toBe('http://app.example');
  });
});

describe('serve --http bound to IPv6 loopback', () => {
  it('accepts loopback names with its port and refuses others', async (context) => {
    const config = parseServeConfig({ tenants: { dora: { workspaceRoot: 'ws' } }, tokens: { [TOKEN]: 'dora' }, sandbox: 'off' }, home.root);
    const v6 = await startHttpServer({ config, port: 0, host: '::1', log: () => undefined }).catch(() => undefined);
    if (v6 === undefined) return context.skip();
    try {
      const p = Number(new URL(v6.url).port);
      expect(v6.url).toBe(`http://[::1]:${p}/mcp`);
      for (const host of [`[::1]:${p}`, `localhost:${p}`, `127.0.0.1:${p}`]) expect((await send(v6.url, { host })).status).toBe(401);
      for (const host of [`evil.example.com:${p}`, `[::2]:${p}`, `[::1]:${p + 1}`]) expect((await send(v6.url, { host })).status).toBe(403);
    } finally {
      await v6.close();
    }
  });
});

describe('serve --http bound to a non-loopback interface', () => {
  it('does not check the Host (it cannot know its names) but still refuses a foreign Origin', async () => {
    const config = parseServeConfig({ tenants: { dora: { workspaceRoot: 'ws' } }, tokens: { [TOKEN]: 'dora' }, sandbox: 'off' }, home.root);
    const wide = await startHttpServer({ config, port: 0, host: '0.0.0.0', log: () => undefined });
    try {
      const url = `http://127.0.0.1:${new URL(wide.url).port}/mcp`;
      expect((await send(url, { host: 'agents.example.com' })).status).toBe(401);
      expect((await send(url, { host: 'agents.example.com', origin: 'http://evil.example.com', ...auth })).status).toBe(403);
    } finally {
      await wide.close();
    }
  });
});

describe('401 answers', () => {
  it.each<[string, Record<string, string>, string, RegExp]>([
    ['no Authorization header', {}, 'Bearer realm="toolwarden"', /^Unauthorized: missing bearer token/],
    ['another scheme', { authorization: `Basic ${TOKEN}` }, 'Bearer realm="toolwarden"', /^Unauthorized: missing bearer token/],
    ['a malformed bearer header', { authorization: 'Bearer a b' }, 'Bearer realm="toolwarden", error="invalid_request", error_description="malformed bearer token: send \'Authorization: Bearer <token>\'"', /^Unauthorized: malformed bearer token/],
    ['an unknown token', { authorization: `Bearer ${'x'.repeat(24)}` }, 'Bearer realm="toolwarden", error="invalid_token", error_description="unknown bearer token"', /^Unauthorized: unknown bearer token/],
  ])('carry a JSON-RPC error and a Bearer challenge for %s', async (_name, headers, challenge, message) => {
    const reply = await send(server.url, { host: `127.0.0.1:${port}`, ...headers });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(challenge);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(message) }, id: null });
  });
});
