import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { KEY_FILES } from '../../cli/commands/keys.js';
import { createRuntime } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let home: TempTree;

async function runHere(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

beforeAll(() => {
  home = makeTempTree('tw-keys-cli', { 'ws/alice/a.md': 'a\n' });
  fs.writeFileSync(home.at('serve.json'), JSON.stringify({ tenants: { alice: { workspaceRoot: 'ws/alice', tools: ['read_file', 'list_dir'], permissions: { read_file: 'ask' } } }, tokenPublicKeys: 'keys/token-public.jwks.json' }));
});
afterAll(() => home.cleanup());

describe('toolwarden keys generate and mint', () => {
  it('writes a private JWK only its owner can read and a public JWKS, and never overwrites them', async () => {
    const first = await runHere(['keys', 'generate', '--out', home.at('keys'), '--kid', 'k-2026']);
    expect(first).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('key k-2026') });
    expect(fs.statSync(home.at(`keys/${KEY_FILES.privateKey}`)).mode & 0o777).toBe(0o600);
    const jwks = JSON.parse(fs.readFileSync(home.at(`keys/${KEY_FILES.publicKeys}`), 'utf8')) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', kid: 'k-2026' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const before = fs.readFileSync(home.at(`keys/${KEY_FILES.privateKey}`), 'utf8');
    expect(await runHere(['keys', 'generate', '--out', home.at('keys')])).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('CONFLICT') });
    expect(fs.readFileSync(home.at(`keys/${KEY_FILES.privateKey}`), 'utf8')).toBe(before);
  });

  it('mints a token for a user of the config that a verify-only runtime accepts, with the tenant rules inside', async () => {
    const minted = await runHere(['mint', '--config', home.at('serve.json'), '--private-key', home.at(`keys/${KEY_FILES.privateKey}`), '--user', 'alice', '--tools', 'read_file', '--ttl', '600']);
    expect(minted.exitCode).toBe(0);
    const token = minted.stdout.trim();
    const publicKeys = JSON.parse(fs.readFileSync(home.at(`keys/${KEY_FILES.publicKeys}`), 'utf8')) as { keys: [] };
    const node = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys } });
    const info = await node.verifyToken(token);
    expect(info).toMatchObject({ user: 'alice', tools: ['read_file'], workspaceRoot: home.at('ws/alice') });
    expect(info.expiresAt - Date.now() / 1000).toBeLessThanOrEqual(600);
    const s = await node.openSession({ token });
    expect(s.capability.permissions).toEqual([{ read_file: 'ask' }]);
    await s.close();
    await node.close();
  });

  it("carries the config's limits with the tenant's over them, which a node accepts within its tokenBounds", async () => {
    fs.writeFileSync(home.at('limits.json'), JSON.stringify({ limits: { maxProcesses: 4 }, tenants: { alice: { workspaceRoot: 'ws/alice', tools: ['read_file'], limits: { toolTimeoutMs: 10_000 } } }, tokenPublicKeys: 'keys/token-public.jwks.json' }));
    const minted = await runHere(['mint', '--config', home.at('limits.json'), '--private-key', home.at(`keys/${KEY_FILES.privateKey}`), '--user', 'alice']);
    expect(minted.exitCode).toBe(0);
    const publicKeys = JSON.parse(fs.readFileSync(home.at(`keys/${KEY_FILES.publicKeys}`), 'utf8')) as { keys: [] };
    const node = await createRuntime({ idleWorkers: 0, tokenKeys: { publicKeys } });
    const s = await node.openSession({ token: minted.stdout.trim() });
    expect(s.capability.limits).toMatchObject({ toolTimeoutMs: 10_000, maxProcesses: 4 });
    await s.close();
    await node.close();
  });

  it.each([
    [['keys'], 2, "the only subcommand is 'generate'"],
    [['keys', 'generate'], 2, '--out DIR is required'],
    [['mint', '--config', 'x'], 2, '--private-key is required'],
    [['mint', '--config', 'serve.json', '--private-key', 'nope.json', '--user', 'alice'], 1, 'not a readable JWK file'],
    [['mint', '--config', 'serve.json', '--private-key', 'serve.json', '--user', 'alice', '--ttl', '0'], 2, '--ttl must be a positive whole number'],
  ])('%j exits %i naming the problem', async (args, code, message) => {
    const resolved = args.map((a) => (a.endsWith('.json') ? home.at(a) : a));
    const result = await runHere(resolved);
    expect(result.exitCode).toBe(code);
    expect(result.stderr).toContain(message);
  });
});
