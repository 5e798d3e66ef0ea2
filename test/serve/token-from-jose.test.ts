import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { execa } from 'execa';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// A control plane that is not toolwarden: this file imports none of its code. It mints with jose alone, from the
// claims the shipped JSON Schema documents and a key pair of its own, and opens a session on `toolwarden serve --http`
// (the built CLI, a real process) through the MCP SDK's client.
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const schema = JSON.parse(fs.readFileSync(new URL('../../src/capability/capability-token.schema.json', import.meta.url), 'utf8')) as {
  properties: { iss: { const: string }; aud: { const: string } };
  $defs: { limits: { properties: Record<string, { default: number }> } };
};
const validateClaims = new Ajv2020({ strict: true }).compile(schema);

let home: string;
let workspace: string;
/** The serve process: stopped with SIGTERM after the tests. */
let server: { kill(signal: NodeJS.Signals): boolean } & PromiseLike<unknown>;
let url: string;
let privateKey: CryptoKey;
let otherKey: CryptoKey;
const KID = 'control-plane-2026';
const clients: Client[] = [];

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-jose-'));
  fs.mkdirSync(path.join(home, 'ws/dana'), { recursive: true });
  fs.writeFileSync(path.join(home, 'ws/dana/hello.txt'), 'hello from a jose token\n');
  // The schema wants canonical paths: /tmp may itself be a link.
  workspace = fs.realpathSync(path.join(home, 'ws/dana'));
  const pair = await generateKeyPair('Ed25519', { extractable: true });
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair('Ed25519')).privateKey;
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'EdDSA', use: 'sig' };
  fs.writeFileSync(
    path.join(home, 'serve.json'),
    JSON.stringify({ tenants: { dana: { workspaceRoot: 'ws/dana', tools: ['read_file', 'list_dir', 'grep'] } }, tokenPublicKeys: { keys: [publicJwk] }, sandbox: 'off' }),
  );
  const child = execa(process.execPath, [MAIN, 'serve', '--http', '--port', '0', '--config', path.join(home, 'serve.json')], { reject: false });
  server = child;
  let stderr = '';
  url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    void child.then(() => reject(new Error(`server exited early: ${stderr}`)));
  });
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  server?.kill('SIGTERM');
  await server;
  fs.rmSync(home, { recursive: true, force: true });
});

/** The `cap` claim, written from the schema alone: every required field, the limits at their documented defaults. */
function capability(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sid: randomUUID(),
    user: 'dana',
    workspaceRoot: workspace,
    readRoots: [],
    allowOutsideWorkspace: false,
    excludedPaths: ['.git'],
    tools: ['read_file', 'list_dir'],
    mcpServers: [],
    limits: Object.fromEntries(Object.entries(schema.$defs.limits.properties).map(([name, limit]) => [name, limit.default])),
    permissions: [{ read_file: { deny: ['secrets/**'] } }],
    sandbox: 'off',
    net: false,
    env: [],
    toolModules: [],
    isolation: 'worker',
    ...over,
  };
}

async function mint(cap: Record<string, unknown>, options: { alg?: 'EdDSA' | 'Ed25519'; key?: CryptoKey } = {}): Promise<string> {
  const claims: JWTPayload = { cap };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'EdDSA', typ: 'JWT', kid: KID })
    .setIssuer(schema.properties.iss.const)
    .setAudience(schema.properties.aud.const)
    .setJti(cap['sid'] as string)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(options.key ?? privateKey);
  return token;
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'jose-control-plane', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

describe('a token minted with jose alone, from the schema, opens a session on serve --http', () => {
  it.each(['EdDSA', 'Ed25519'] as const)('signed %s: the session has exactly the tools and rules of its claims', async (alg) => {
    const cap = capability();
    const iat = Math.floor(Date.now() / 1000);
    expect(validateClaims({ cap, iss: schema.properties.iss.const, aud: schema.properties.aud.const, jti: cap['sid'], iat, exp: iat + 300 }), JSON.stringify(validateClaims.errors)).toBe(true);
    const client = await connect(await mint(cap, { alg }));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['list_dir', 'read_file']);
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
    expect(read.isError).toBeFalsy();
    expect(JSON.stringify(read.content)).toContain('hello from a jose token');
    const refused = await client.callTool({ name: 'read_file', arguments: { path: 'secrets/key' } });
    expect(refused).toMatchObject({ isError: true, structuredContent: { code: 'POLICY_DENIED' } });
    await client.close();
  });

  it.each([
    ['signed by a key the node does not list', async () => mint(capability(), { key: otherKey }), /TOKEN_INVALID/],
    ['asking a tool beyond the tenant', async () => mint(capability({ tools: ['read_file', 'bash'] })), /ESCALATION/],
    ['asking a limit above the node\'s', async () => mint(capability({ limits: { ...(capability()['limits'] as object), toolTimeoutMs: 600_000 } })), /ESCALATION/],
    ['passing host variables', async () => mint(capability({ env: ['HOME'] })), /ESCALATION/],
  ])('is refused when %s (the node bounds what it did not sign)', async (_name, make, code) => {
    await expect(connect(await make())).rejects.toThrow(code);
  });
});
