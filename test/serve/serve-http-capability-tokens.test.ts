import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseServeConfig, type ServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer, type HttpServeHandle } from '../../runtime/serve/http/serve-http.js';
import { createRuntime, generateTokenKeyPair, type Runtime, type TokenKeyPair } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let home: TempTree;
let pair: TokenKeyPair;
let control: Runtime;
let nodes: HttpServeHandle[];
const clients: Client[] = [];

const TENANTS = {
  alice: { workspaceRoot: 'alice', tools: ['read_file', 'list_dir'], permissions: { read_file: { deny: ['secret*'] } } },
  bob: { workspaceRoot: 'bob', tools: ['read_file'] },
};

function nodeConfig(publicKeys: unknown): ServeConfig {
  return parseServeConfig({ tenants: TENANTS, tokenPublicKeys: publicKeys, sandbox: 'off' }, home.root);
}

async function connect(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'cap-token-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function statusOf(url: string, token: string): Promise<{ status: number; challenge: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get('www-authenticate') };
}

const textOf = (result: object): string => ((('content' in result ? result.content : undefined) ?? []) as { text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  home = makeTempTree('tw-serve-cap', { 'alice/plan.md': 'alice plan\n', 'alice/secret.md': 'no\n', 'bob/todo.md': 'bob todo\n' });
  pair = generateTokenKeyPair('k1');
  fs.writeFileSync(home.at('public.jwks.json'), JSON.stringify(pair.publicKeys));
  // The control plane: the same tenants, the private key, no listener.
  control = await createRuntime({ idleWorkers: 0, sandbox: 'off', tokenKeys: { privateKey: pair.privateKey }, tenants: { alice: { workspaceRoot: home.at('alice'), tools: ['read_file', 'list_dir'] }, bob: { workspaceRoot: home.at('bob'), tools: ['read_file'] } } });
  // Two serving nodes, one with the JWKS file, one with it inline: neither holds a private key or a bearer table.
  nodes = await Promise.all([nodeConfig('public.jwks.json'), nodeConfig(pair.publicKeys)].map((config) => startHttpServer({ config, port: 0, log: () => undefined })));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all([...nodes.map((n) => n.close()), control.close()]);
  home.cleanup();
});

describe('serve --http with capability tokens verified by public keys', () => {
  it('a token minted by the control plane works on any node, for the user it names', async () => {
    const token = await control.mintToken({ user: 'bob', tools: ['read_file'] });
    for (const node of nodes) {
      const client = await connect(node.url, token);
      expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: 'todo.md' } }))).toContain('bob todo');
      await client.close();
    }
  });

  it("applies the tenant's session rules of the node's config: a token never lifts them", async () => {
    const token = await control.mintToken({ user: 'alice', tools: ['read_file'] });
    const client = await connect(nodes[0]!.url, token);
    expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: 'plan.md' } }))).toContain('alice plan');
    const refused = await client.callTool({ name: 'read_file', arguments: { path: 'secret.md' } });
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).not.toContain('no\n');
    await client.close();
  });

  it('the tools a token carries are all it gets, even if the tenant allows more', async () => {
    const token = await control.mintToken({ user: 'alice', tools: ['read_file'] });
    const client = await connect(nodes[1]!.url, token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['read_file']);
    await client.close();
  });

  it('refuses, with a 401 invalid_token challenge, tokens that are forged, foreign, expired, user-less or beyond the tenant', async () => {
    const foreign = await (async () => {
      const other = generateTokenKeyPair();
      const rt = await createRuntime({ idleWorkers: 0, tokenKeys: { privateKey: other.privateKey } });
      try {
        return await rt.mintToken({ user: 'bob', workspaceRoot: home.at('bob'), tools: ['read_file'] });
      } finally {
        await rt.close();
      }
    })();
    const valid = await control.mintToken({ user: 'bob', tools: ['read_file'] });
    const [h, p, s] = valid.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { cap: Record<string, unknown> };
    const widened = `${h}.${Buffer.from(JSON.stringify({ ...claims, cap: { ...claims.cap, user: 'alice' } })).toString('base64url')}.${s}`;
    const expired = await control.mintToken({ user: 'bob', tools: ['read_file'], ttlSeconds: -5 });
    const userless = await control.mintToken({ workspaceRoot: home.at('bob'), tools: ['read_file'] });
    const outside = await control.mintToken({ workspaceRoot: home.root, tools: ['read_file'] });
    for (const token of [foreign, widened, expired, userless, outside, `${h}.${p}.`]) {
      const reply = await statusOf(nodes[0]!.url, token);
      expect(reply.status).toBe(401);
      expect(reply.challenge).toContain('error="invalid_token"');
    }
  });

  it('binds an MCP session to the credential that opened it: a narrower token of the same user does not reach it', async () => {
    const broad = await control.mintToken({ user: 'alice', tools: ['read_file', 'list_dir'] });
    const narrow = await control.mintToken({ user: 'alice', tools: ['list_dir'] });
    const init = await fetch(nodes[0]!.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${broad}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    await init.body?.cancel();
    const sid = init.headers.get('mcp-session-id');
    expect(sid).toBeTruthy();
    const call = (token: string) => fetch(nodes[0]!.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'mcp-session-id': sid!, 'mcp-protocol-version': '2025-06-18', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'plan.md' } } }),
    });
    const hijack = await call(narrow);
    expect(hijack.status).toBe(404);
    await hijack.body?.cancel();
    const own = await call(broad);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it("a token granting more network than the node's tokenBounds is a 401; within them it serves", async () => {
    const token = await control.mintToken({ user: 'bob', tools: ['read_file'], net: ['api.test'], limits: { commandTimeoutMs: 45_000 } });
    expect((await statusOf(nodes[0]!.url, token)).status).toBe(401);
    const bounded = await startHttpServer({
      config: parseServeConfig({ tenants: TENANTS, tokenPublicKeys: pair.publicKeys, sandbox: 'off', tokenBounds: { net: ['api.test'], limits: { commandTimeoutMs: 45_000 } } }, home.root),
      port: 0,
      log: () => undefined,
    });
    try {
      const client = await connect(bounded.url, token);
      expect(textOf(await client.callTool({ name: 'read_file', arguments: { path: 'todo.md' } }))).toContain('bob todo');
      await client.close();
    } finally {
      await bounded.close();
    }
  });

  it('refuses tokenBounds that are not valid, naming the field', () => {
    expect(() => parseServeConfig({ tenants: TENANTS, tokenPublicKeys: pair.publicKeys, tokenBounds: { net: 'api.test' } }, home.root)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('tokenBounds.net') }));
  });

  it('a config with neither bearer tokens nor public keys cannot serve HTTP', async () => {
    const config = parseServeConfig({ tenants: TENANTS, sandbox: 'off' }, home.root);
    await expect(startHttpServer({ config, port: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('tokenPublicKeys') });
  });

  it.each([
    ['an empty JWKS', { keys: [] }, 'tokenPublicKeys must be'],
    ['a number', 7, 'tokenPublicKeys must be'],
  ])('refuses tokenPublicKeys that is %s', (_name, value, message) => {
    expect(() => parseServeConfig({ tenants: TENANTS, tokenPublicKeys: value }, home.root)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) }));
  });

  it('refuses a JWKS file that is missing or holds a non-Ed25519 key', async () => {
    await expect(startHttpServer({ config: nodeConfig('missing.json'), port: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('not a readable JWKS file') });
    fs.writeFileSync(home.at('rsa.jwks.json'), JSON.stringify({ keys: [{ kty: 'RSA', n: 'AQAB', e: 'AQAB' }] }));
    await expect(startHttpServer({ config: nodeConfig('rsa.jwks.json'), port: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
