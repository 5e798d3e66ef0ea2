import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCapability, verifyCapability } from '../../src/capability/token.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { makeCapability } from '../helpers/capability.js';

const key = randomBytes(32);
const payloadOf = (token: string): { cap: { blockedPaths: unknown[] } } => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { cap: { blockedPaths: unknown[] } };

// A token travels in an Authorization header (Node refuses headers past 16 KiB by default): the default blocklist
// travels by name, so its growth never costs a token its size.
describe('the blocklist in a token', () => {
  it('carries default entries by name and returns them whole', async () => {
    const token = signCapability(makeCapability(), key, 60);
    expect(payloadOf(token).cap.blockedPaths).toEqual(DEFAULT_BLOCKLIST.map((e) => (e.only === undefined ? e.segments.join('/') : `${e.segments.join('/')} (file or symlink)`)));
    expect(token.length).toBeLessThan(4096);
    const { capability } = await verifyCapability(token, key);
    expect(capability.blockedPaths).toEqual(DEFAULT_BLOCKLIST);
  });

  it('carries an entry that differs from the default one (a child made nested entries apply at its root) whole', async () => {
    const widened = DEFAULT_BLOCKLIST.map((e) => (e.depth === 'nested' ? { ...e, depth: 'any' as const } : e));
    const added = { segments: ['deploy.sh'], depth: 'any' as const, why: 'added by the blockedPaths option' };
    const token = signCapability(makeCapability({ blockedPaths: [...widened, added] }), key, 60);
    const { capability } = await verifyCapability(token, key);
    expect(capability.blockedPaths).toEqual([...widened, added]);
  });

  it('refuses a name this runtime does not know', async () => {
    const token = signCapability(makeCapability({ blockedPaths: DEFAULT_BLOCKLIST.map((e) => (e.segments[0] === '.npmrc' ? { ...e, why: 'x' } : e)) }), key, 60);
    const honest = payloadOf(signCapability(makeCapability(), key, 60));
    const head = token.split('.')[0]!;
    const body = Buffer.from(JSON.stringify({ ...honest, cap: { ...honest.cap, blockedPaths: [...honest.cap.blockedPaths, '.nosuchrc'] } })).toString('base64url');
    const forged = `${head}.${body}.${createHmac('sha256', key).update(`${head}.${body}`).digest('base64url')}`;
    await expect(verifyCapability(token, key)).resolves.toBeDefined();
    await expect(verifyCapability(forged, key)).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringContaining("'.nosuchrc'") });
  });
});
