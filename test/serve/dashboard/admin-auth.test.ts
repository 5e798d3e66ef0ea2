import { describe, expect, it } from 'vitest';
import { ADMIN_COOKIE, createAdminAuth, LOGIN_TTL_MS, loginCookie } from '../../../runtime/serve/dashboard/admin-auth.js';

const TOKEN = 'admin-token-0123456789abcdef';

describe('createAdminAuth', () => {
  it.each([
    ['the token with a trailing byte', `Bearer ${TOKEN}x`],
    ['the token lower-cased', `Bearer ${TOKEN.toUpperCase()}`],
    ['the scheme only', 'Bearer'],
    ['an empty header', ''],
    ['the token without a scheme', TOKEN],
  ])('refuses %s', (_name, authorization) => {
    expect(createAdminAuth(TOKEN).check({ authorization })).toMatchObject({ ok: false });
  });

  it('accepts the bearer (case-insensitive scheme), as bearer proof', () => {
    expect(createAdminAuth(TOKEN).check({ authorization: `bearer ${TOKEN}` })).toEqual({ ok: true, proof: 'bearer' });
  });

  it('a wrong bearer is refused even with a valid login cookie beside it (no fallback)', () => {
    const auth = createAdminAuth(TOKEN);
    const value = auth.login(TOKEN)!;
    expect(auth.check({ authorization: 'Bearer wrong-token-0123456789', cookie: `${ADMIN_COOKIE}=${value}`, loginKey: auth.keyOf(value) })).toMatchObject({ ok: false });
    expect(auth.check({ cookie: `other=1; ${ADMIN_COOKIE}=${value}`, loginKey: auth.keyOf(value) })).toEqual({ ok: true, proof: 'cookie' });
  });

  it('a login is a fresh random id each time, never the token, and ends at its expiry', () => {
    let now = 1_000;
    const auth = createAdminAuth(TOKEN, () => now);
    const first = auth.login(TOKEN)!;
    const second = auth.login(TOKEN)!;
    expect(first).not.toBe(second);
    expect(first).not.toContain(TOKEN);
    expect(auth.login('not-the-token-0123456789')).toBeUndefined();
    expect(auth.login(undefined)).toBeUndefined();
    now += LOGIN_TTL_MS - 1;
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${first}`, loginKey: auth.keyOf(first) }).ok).toBe(true);
    now += 1;
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${first}`, loginKey: auth.keyOf(first) })).toMatchObject({ ok: false, message: expect.stringContaining('expired') });
  });

  it('logout ends that login only', () => {
    const auth = createAdminAuth(TOKEN);
    const [a, b] = [auth.login(TOKEN)!, auth.login(TOKEN)!];
    auth.logout(`${ADMIN_COOKIE}=${a}`);
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${a}`, loginKey: auth.keyOf(a) }).ok).toBe(false);
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${b}`, loginKey: auth.keyOf(b) }).ok).toBe(true);
  });

  // The cookie reaches any server on another port of this host (cookies ignore ports); alone it must be worthless.
  it.each<[string, (auth: ReturnType<typeof createAdminAuth>, own: string, other: string) => string | undefined]>([
    ['no login key', () => undefined],
    ['an empty login key', () => ''],
    ["another login's key", (auth, _own, other) => auth.keyOf(other)],
    ['the cookie value itself as the key', (_auth, own) => own],
    ["the key of another server (its own secret)", (_auth, own) => createAdminAuth(TOKEN).keyOf(own)],
  ])('a login cookie with %s is refused', (_name, keyFor) => {
    const auth = createAdminAuth(TOKEN);
    const [own, other] = [auth.login(TOKEN)!, auth.login(TOKEN)!];
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${own}`, loginKey: keyFor(auth, own, other) })).toMatchObject({ ok: false });
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${own}`, loginKey: auth.keyOf(own) })).toEqual({ ok: true, proof: 'cookie' });
  });

  it('the cookie is HttpOnly, SameSite=Strict, scoped to /ui; Secure over https', () => {
    expect(loginCookie('v', false)).toBe(`${ADMIN_COOKIE}=v; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=${LOGIN_TTL_MS / 1000}`);
    expect(loginCookie('v', true)).toMatch(/; Secure$/);
    expect(loginCookie('', false)).toContain('Max-Age=0');
  });
});
