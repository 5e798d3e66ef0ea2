import { describe, expect, it } from 'vitest';
import { ADMIN_COOKIE, createAdminAuth } from '../../../runtime/serve/dashboard/admin-auth.js';

// Red-team finding F: browsers send a cookie to every port of its host (RFC 6265 ignores ports) and SameSite=Strict
// does not help (127.0.0.1:3000 and 127.0.0.1:3333 are one site), so any other server on 127.0.0.1 the admin's
// browser visits receives `tw_admin` and could replay it with a forged Origin. The cookie alone is now worthless:
// every cookie request needs the login key, which the login reply hands to the page and the page keeps in
// sessionStorage (per origin: scheme, host and port). The routes' rows are in dashboard-auth-routes.test.ts.
describe('the dashboard login cookie and other local ports', () => {
  it('a server on another port that received the cookie cannot use it: no key, and the key is not derivable from it', () => {
    const auth = createAdminAuth('admin-token-0123456789abcdef');
    const cookie = auth.login('admin-token-0123456789abcdef')!;
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${cookie}` })).toMatchObject({ ok: false, message: expect.stringContaining('login key') });
    expect(auth.keyOf(cookie)).not.toContain(cookie);
    expect(auth.check({ cookie: `${ADMIN_COOKIE}=${cookie}`, loginKey: auth.keyOf(cookie) })).toEqual({ ok: true, proof: 'cookie' });
  });
});
