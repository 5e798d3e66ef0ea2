import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, generateTokenKeyPair, type Runtime, type TokenKeyPair } from '../../runtime/index.js';
import { parseTokenKeys, type TokenKeysOption } from '../../src/capability/token-keys.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

let ws: TempTree;
let pair: TokenKeyPair;
let control: Runtime;
let node: Runtime;

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string): [string, string, string] => token.split('.') as [string, string, string];
const claimsOf = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(parts(token)[1], 'base64url').toString()) as Record<string, unknown>;

beforeAll(async () => {
  ws = makeTempTree('tw-token-keys', { 'src/a.ts': 'const a = 1;\n', 'secret.txt': 'no\n' });
  pair = generateTokenKeyPair();
  control = await createRuntime({ idleWorkers: 0, tokenKeys: { privateKey: pair.privateKey } });
  node = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: pair.publicKeys } });
});
afterAll(async () => {
  await Promise.all([control.close(), node.close()]);
  ws.cleanup();
});

describe('a token minted by the control plane opens on a node that holds only the public key', () => {
  it('verifies, opens and works, carrying the kid of the key', async () => {
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], user: 'alice' });
    expect(JSON.parse(Buffer.from(parts(token)[0], 'base64url').toString())).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: pair.keyId });
    await expect(node.verifyToken(token)).resolves.toMatchObject({ user: 'alice', tools: ['read_file'], workspaceRoot: ws.root });
    const s = await node.openSession({ token });
    expect(textOf(await s.call('read_file', { path: 'src/a.ts' }))).toContain('const a = 1;');
    // One live session per token, per node.
    await expect(node.openSession({ token })).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringContaining('already bound') });
    await s.close();
  });

  it('a node with public keys only mints nothing', async () => {
    await expect(node.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('verifies tokens only') });
  });

  it("a node's own sessions still get tokens, valid on that node only", async () => {
    const s = await node.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    const local = s.token;
    await s.close();
    expect(JSON.parse(Buffer.from(parts(local)[0], 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    const other = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: pair.publicKeys } });
    await expect(other.openSession({ token: local })).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await other.close();
  });

  it('children of a control-plane session are signed with the private key too', async () => {
    const parent = await control.openSession({ workspaceRoot: ws.root, tools: ['read_file', 'list_dir'] });
    const child = await parent.attenuate({ tools: ['read_file'] });
    const token = child.token;
    await parent.close();
    const opened = await node.openSession({ token });
    expect(opened.capability.tools).toEqual(['read_file']);
    await opened.close();
  });

  it('publishes its public keys, never the private part', () => {
    expect(control.tokenPublicKeys.keys).toHaveLength(1);
    expect(control.tokenPublicKeys.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: pair.keyId });
    expect(control.tokenPublicKeys.keys[0]).not.toHaveProperty('d');
  });
});

describe('forged and foreign tokens are TOKEN_INVALID', () => {
  const forgeries: [string, (token: string) => string][] = [
    ['payload widened (tools), signature kept', (t) => { const [h, , s] = parts(t); return `${h}.${b64({ ...claimsOf(t), cap: { ...(claimsOf(t)['cap'] as object), tools: ['read_file', 'bash'] } })}.${s}`; }],
    ['signature of another Ed25519 key', (t) => { const [h, p] = parts(t); return `${h}.${p}.${sign(null, Buffer.from(`${h}.${p}`), generateKeyPairSync('ed25519').privateKey).toString('base64url')}`; }],
    ["alg confusion: HS256 keyed with the public key's bytes", (t) => { const h = b64({ alg: 'HS256', typ: 'JWT' }); const p = parts(t)[1]; return `${h}.${p}.${createHmac('sha256', Buffer.from(pair.publicKeys.keys[0]!.x as string, 'base64url')).update(`${h}.${p}`).digest('base64url')}`; }],
    ["alg confusion: HS256 keyed with the public JWKS text", (t) => { const h = b64({ alg: 'HS256', typ: 'JWT' }); const p = parts(t)[1]; return `${h}.${p}.${createHmac('sha256', JSON.stringify(pair.publicKeys)).update(`${h}.${p}`).digest('base64url')}`; }],
    ['alg none, no signature', (t) => `${b64({ alg: 'none', typ: 'JWT' })}.${parts(t)[1]}.`],
    ['alg RS256', (t) => `${b64({ alg: 'RS256', typ: 'JWT', kid: pair.keyId })}.${parts(t)[1]}.${parts(t)[2]}`],
    ['kid of an unknown key', (t) => { const [, p, s] = parts(t); return `${b64({ alg: 'EdDSA', typ: 'JWT', kid: 'other' })}.${p}.${s}`; }],
    ['signature truncated', (t) => t.slice(0, -4)],
    ['embedded jwk header naming its own key', (t) => { const k = generateKeyPairSync('ed25519').privateKey; const h = b64({ alg: 'EdDSA', typ: 'JWT', jwk: k.export({ format: 'jwk' }) }); const p = parts(t)[1]; return `${h}.${p}.${sign(null, Buffer.from(`${h}.${p}`), k).toString('base64url')}`; }],
  ];
  it.each(forgeries)('%s', async (_name, forge) => {
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    await expect(node.openSession({ token: forge(token) })).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await expect(node.verifyToken(forge(token))).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('an expired Ed25519 token', async () => {
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], ttlSeconds: -5 });
    await expect(node.openSession({ token })).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringContaining('expired') });
  });

  it('an Ed25519 token on a runtime without tokenKeys', async () => {
    const plain = await createRuntime({ idleWorkers: 0 });
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    await expect(plain.openSession({ token })).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringContaining('no tokenKeys') });
    await plain.close();
  });

  it('a token for a user beyond the node tenant is refused by verifyToken as openSession would', async () => {
    const bounded = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: pair.publicKeys }, tenants: { alice: { workspaceRoot: ws.at('src'), tools: ['read_file'] } } });
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], user: 'alice' });
    const refusal = await bounded.verifyToken(token).catch((error: unknown) => error);
    await expect(bounded.openSession({ token })).rejects.toMatchObject({ code: (refusal as { code: string }).code });
    expect(['ESCALATION', 'TOKEN_INVALID']).toContain((refusal as { code: string }).code);
    await bounded.close();
  });
});

describe('a token from another signer is bounded by the node it opens on', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a weaker sandbox', { sandbox: 'off' }, "sandbox 'off' is weaker than this node's 'required'"],
    ['the default sandbox on a required node', {}, "sandbox 'auto' is weaker"],
    ['host environment variables', { sandbox: 'required', env: ['PATH', 'SECRET'] }, 'env passes host variables'],
    ['a lifted blocklist entry', { sandbox: 'required', blockedPaths: { remove: ['.vscode'] } }, "blockedPaths lifts '.vscode'"],
    // Not covered by adding a plain .git entry back: that is another entry (it blocks more), the lifted one is gone.
    ['the .git file entry lifted', { sandbox: 'required', blockedPaths: { remove: ['.git (file or symlink)'] } }, "blockedPaths lifts '.git (file or symlink)'"],
  ])('refuses %s with ESCALATION', async (_name, extra, message) => {
    const strict = await createRuntime({ idleWorkers: 0, sandbox: 'required', tokenKeys: { publicKeys: pair.publicKeys } });
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], ...extra });
    await expect(strict.verifyToken(token)).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining(message) });
    await expect(strict.openSession({ token })).rejects.toMatchObject({ code: 'ESCALATION' });
    await strict.close();
  });

  it('near miss: the same or a stronger sandbox, and added blocklist entries, open', async () => {
    const strict = await createRuntime({ idleWorkers: 0, sandbox: 'auto', tokenKeys: { publicKeys: pair.publicKeys } });
    for (const extra of [{ sandbox: 'auto' }, { sandbox: 'required' }, { blockedPaths: { add: ['private'] } }] as Record<string, unknown>[]) {
      const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], ...extra });
      await expect(strict.verifyToken(token)).resolves.toBeDefined();
    }
    await strict.close();
  });

  it("refuses a token that loads tool modules the node does not", async () => {
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    const [h, p] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { cap: Record<string, unknown> };
    const key = (await import('node:crypto')).createPrivateKey({ key: pair.privateKey as never, format: 'jwk' });
    const body = Buffer.from(JSON.stringify({ ...claims, cap: { ...claims.cap, toolModules: ['file:///tmp/evil.mjs'] } })).toString('base64url');
    const forged = `${h}.${body}.${sign(null, Buffer.from(`${h}.${body}`), key).toString('base64url')}`;
    await expect(node.verifyToken(forged)).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining('toolModules') });
  });
});

describe('a token from another signer stays within the node on net, limits, credentials and MCP servers', () => {
  const bounds = { net: ['api.test', '*.example.com'], limits: { commandTimeoutMs: 60_000 }, credentials: { GH_TOKEN: { value: 'ghp-node-secret', hosts: ['api.test'] } } };

  it.each<[string, Record<string, unknown>, string]>([
    ["net '*' (commands would share the host network)", { net: ['*'] }, "net grants '*'"],
    ['a net host the node does not list', { net: ['evil.test'] }, "net grants 'evil.test'"],
    ['a private address', { net: ['127.0.0.1'] }, "net grants '127.0.0.1'"],
    ['a timeout above the node', { limits: { commandTimeoutMs: 60_001 } }, 'limits.commandTimeoutMs=60001'],
    ['more processes than the node', { limits: { maxProcesses: 9 } }, 'limits.maxProcesses=9'],
    ['a credential the node does not hold', { credentials: { AWS_KEY: { hosts: ['api.test'] } } }, "credentials names 'AWS_KEY'"],
    ['a credential sent to more hosts than the node', { credentials: { GH_TOKEN: { hosts: ['api.test', 'evil.test'] } } }, "credentials.GH_TOKEN.hosts grants 'evil.test'"],
    ['a credential value from the token', { credentials: { GH_TOKEN: { value: 'from-the-token', hosts: ['api.test'] } } }, 'credentials.GH_TOKEN carries a value'],
  ])('refuses %s with ESCALATION naming the field', async (_name, extra, message) => {
    const bounded = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: pair.publicKeys }, tokenBounds: bounds });
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], ...extra });
    await expect(bounded.verifyToken(token)).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining(message) });
    await expect(bounded.openSession({ token })).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining(message) });
    await bounded.close();
  });

  it('refuses any network on a node without tokenBounds (the strictest default)', async () => {
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], net: ['api.test'] });
    await expect(node.openSession({ token })).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining("net grants 'api.test' beyond this node's net (none)") });
  });

  it('refuses an MCP server the node does not configure', async () => {
    const mcp = await createRuntime({ idleWorkers: 0, tokenKeys: { privateKey: pair.privateKey }, mcpServers: { shadow: { url: 'http://127.0.0.1:9/mcp' } } });
    const token = await mcp.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], mcpServers: ['shadow'], user: 'alice' });
    await mcp.close();
    await expect(node.verifyToken(token)).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringContaining("mcpServers names server 'shadow'") });
  });

  it('near miss: equal or narrower net, limits and credentials open, with the value from the node', async () => {
    const bounded = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: pair.publicKeys }, tokenBounds: bounds });
    const token = await control.mintToken({
      workspaceRoot: ws.root, tools: ['read_file'], net: ['api.test', '*.cdn.example.com'], limits: { commandTimeoutMs: 60_000, maxProcesses: 2 },
      credentials: { GH_TOKEN: { hosts: ['api.test'] } },
    });
    expect(JSON.stringify(claimsOf(token))).not.toContain('ghp-node-secret');
    const s = await bounded.openSession({ token });
    expect(s.capability.credentials).toEqual({ GH_TOKEN: { value: 'ghp-node-secret', hosts: ['api.test'] } });
    expect(s.capability.limits).toMatchObject({ commandTimeoutMs: 60_000, maxProcesses: 2 });
    await s.close();
    await bounded.close();
  });

  it('only a runtime minting for other nodes names a credential without its value', async () => {
    await expect(node.openSession({ workspaceRoot: ws.root, tools: ['read_file'], credentials: { GH_TOKEN: { hosts: ['api.test'] } } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('credentials.GH_TOKEN.value') });
    const local = await createRuntime({ idleWorkers: 0 });
    await expect(local.mintToken({ workspaceRoot: ws.root, tools: ['read_file'], credentials: { GH_TOKEN: { hosts: ['api.test'] } } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await local.close();
  });

  it.each<[string, unknown, string]>([
    ['an unknown field', { hosts: ['a'] }, "unknown tokenBounds option 'hosts'"],
    ['a bad net entry', { net: ['a b'] }, 'tokenBounds.net'],
    ['a string limit', { limits: { maxProcesses: '9' } }, 'tokenBounds.limits.maxProcesses'],
    ['a credential without value', { credentials: { GH: { hosts: ['api.test'] } } }, 'tokenBounds.credentials: credentials.GH.value'],
    ['not an object', ['*'], 'tokenBounds must be a plain object'],
  ])('tokenBounds with %s is INVALID_OPTIONS naming the field', async (_name, tokenBounds, message) => {
    await expect(createRuntime({ idleWorkers: 0, tokenBounds: tokenBounds as never })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) });
  });
});

describe('rotation: several public keys', () => {
  it('keeps one key listed under two kids (a kid rotated alone)', async () => {
    const jwk = pair.publicKeys.keys[0]!;
    const rt = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: [{ ...jwk, kid: 'new' }, { ...jwk, kid: pair.keyId }] } });
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    await expect(rt.verifyToken(token)).resolves.toBeDefined();
    expect(rt.tokenPublicKeys.keys.map((k) => k.kid)).toEqual(['new', pair.keyId]);
    await rt.close();
  });

  it('accepts tokens of every listed key, and refuses a retired one once it is dropped', async () => {
    const next = generateTokenKeyPair('2026-12');
    const newControl = await createRuntime({ idleWorkers: 0, tokenKeys: { privateKey: next.privateKey } });
    const oldToken = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    const newToken = await newControl.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    const both = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: { keys: [...pair.publicKeys.keys, ...next.publicKeys.keys] } } });
    const onlyNew = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: next.publicKeys } });
    await expect(both.verifyToken(oldToken)).resolves.toBeDefined();
    await expect(both.verifyToken(newToken)).resolves.toBeDefined();
    await expect(onlyNew.verifyToken(newToken)).resolves.toBeDefined();
    await expect(onlyNew.verifyToken(oldToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await Promise.all([newControl.close(), both.close(), onlyNew.close()]);
  });

  it('verifies a token without a kid against each key, and the RFC 9864 alg name Ed25519', async () => {
    const token = await control.mintToken({ workspaceRoot: ws.root, tools: ['read_file'] });
    const { privateKey } = pair;
    const key = (await import('node:crypto')).createPrivateKey({ key: privateKey as never, format: 'jwk' });
    for (const header of [{ alg: 'EdDSA', typ: 'JWT' }, { alg: 'Ed25519', typ: 'JWT', kid: pair.keyId }]) {
      const h = b64(header);
      const p = parts(token)[1];
      const resigned = `${h}.${p}.${sign(null, Buffer.from(`${h}.${p}`), key).toString('base64url')}`;
      const other = generateTokenKeyPair();
      const rt = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys: [other.publicKeys.keys[0]!, pair.publicKeys.keys[0]!] } });
      await expect(rt.verifyToken(resigned)).resolves.toBeDefined();
      await rt.close();
    }
  });
});

describe('tokenKeys option: bad input is INVALID_OPTIONS naming the field', () => {
  const { privateKey: rsa, publicKey: rsaPublic } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const ed = generateKeyPairSync('ed25519');
  const bad: [string, TokenKeysOption, string][] = [
    ['empty', {}, 'needs a privateKey, publicKeys, or both'],
    ['unknown field', { privateKey: ed.privateKey, secret: 'x' } as TokenKeysOption, "unknown tokenKeys field 'secret'"],
    ['RSA private key', { privateKey: rsa }, 'tokenKeys.privateKey must be an Ed25519 key'],
    ['RSA public key', { publicKeys: [rsaPublic] }, 'tokenKeys.publicKeys[0] must be an Ed25519 key'],
    ['public key as the private key', { privateKey: ed.publicKey }, 'tokenKeys.privateKey must be a private key'],
    ['garbage PEM', { publicKeys: ['-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----'] }, 'tokenKeys.publicKeys[0] is not a readable Ed25519 public key'],
    ['empty JWKS', { publicKeys: { keys: [] } }, 'must be a non-empty list'],
    ['empty keyId', { privateKey: ed.privateKey, keyId: '' }, 'keyId must be a non-empty string'],
  ];
  it.each(bad)('%s', async (_name, option, message) => {
    expect(() => parseTokenKeys(option)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) }));
    await expect(createRuntime({ idleWorkers: 0, tokenKeys: option })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('accepts PEM, JWK and KeyObject forms of the same key alike', () => {
    const pem = ed.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const jwk = ed.publicKey.export({ format: 'jwk' });
    const kids = [pem, jwk, ed.publicKey].map((key) => parseTokenKeys({ publicKeys: [key as never] }).publicJwks[0]!.kid);
    expect(new Set(kids).size).toBe(1);
    const fromPrivatePem = parseTokenKeys({ privateKey: ed.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() });
    expect(fromPrivatePem.publicJwks[0]!.kid).toBe(kids[0]);
  });

  it('a private JWK handed in as a public key publishes only its public part', () => {
    const withD = { ...ed.privateKey.export({ format: 'jwk' }), kid: 'k1' };
    const parsed = parseTokenKeys({ publicKeys: [withD] });
    expect(parsed.publicJwks[0]).not.toHaveProperty('d');
    expect(parsed.publicJwks[0]!.kid).toBe('k1');
    expect(parsed.signer).toBeUndefined();
  });
});
