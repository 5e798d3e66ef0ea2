import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB, startDashboardNode, type DashboardNode } from './dashboard-fixture.js';

let node: DashboardNode;
beforeAll(async () => {
  node = await startDashboardNode({ allowedOrigins: ['http://localhost:5173'] });
});
afterAll(() => node?.close());

const API_GETS = ['/ui/api/state', '/ui/api/events'];
const API_POSTS = ['/ui/api/approvals/x', '/ui/api/sessions/x/close', '/ui/api/sessions/x/processes/p1/stop', '/ui/logout'];

describe('the dashboard API is the admin token only', () => {
  it.each([
    ['no credentials', null],
    ["alice's bearer token", `Bearer ${ALICE}`],
    ["bob's bearer token", `Bearer ${BOB}`],
    ['the admin token with one byte changed', `Bearer ${ADMIN.slice(0, -1)}X`],
    ['the admin token as a prefix', `Bearer ${ADMIN.slice(0, 16)}`],
    ['a Basic header holding the admin token', `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`],
    ['two tokens', `Bearer ${ADMIN} ${ADMIN}`],
  ])('%s: 401 on every API path, GET and POST', async (_name, authorization) => {
    for (const path of API_GETS) {
      const res = await node.api(path, { headers: { authorization } });
      expect(res.status, path).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'unauthorized' });
    }
    for (const path of API_POSTS) expect((await node.api(path, { body: {}, headers: { authorization } })).status, path).toBe(401);
  });

  it('the admin bearer gets the state (the near miss)', async () => {
    const res = await node.api('/ui/api/state');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sessions: [], approvals: [], audit: [] });
  });

  it('a cookie that is the admin token itself is no login', async () => {
    expect((await node.api('/ui/api/state', { headers: { authorization: null, cookie: `tw_admin=${ADMIN}` } })).status).toBe(401);
  });
});

describe('the page: its files hold no data, and run under a strict CSP', () => {
  it.each(['/ui', '/ui/', '/ui/app.js', '/ui/app.css'])('%s is served to anyone, with the CSP', async (path) => {
    const res = await node.api(path, { headers: { authorization: null } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await res.text();
    expect(text).not.toContain(ALICE);
    expect(text).not.toContain(ADMIN);
  });

  it('the HTML has no inline script or style', async () => {
    const html = await (await node.api('/ui')).text();
    expect(html).toMatch(/<script type="module" src="\/ui\/app\.js"><\/script>/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
  });
});

describe('logging in: the token is exchanged for an HttpOnly SameSite=Strict cookie that is not the token', () => {
  const login = (token: string, headers: Record<string, string | null> = {}) => node.api('/ui/login', { body: { token }, headers: { authorization: null, origin: node.origin, ...headers } });

  it.each([["alice's token", ALICE], ['a wrong token', 'x'.repeat(30)], ['an empty token', '']])('%s is refused', async (_name, token) => {
    const res = await login(token);
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('the admin token logs in; the cookie opens the API; logging out ends it', async () => {
    const res = await login(ADMIN);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^tw_admin=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/ui');
    expect(cookie).not.toContain(ADMIN);
    const pair = cookie.split(';')[0]!;
    const { key } = (await res.json()) as { key: string };
    expect(key).toMatch(/^[\w-]{40,}$/);
    const withKey = { authorization: null, cookie: pair, 'x-tw-login-key': key };
    expect((await node.api('/ui/api/state', { headers: withKey })).status).toBe(200);
    // The cookie alone (what a server on another port of this host receives from the browser) opens nothing.
    expect((await node.api('/ui/api/state', { headers: { authorization: null, cookie: pair } })).status).toBe(401);
    expect((await node.api(`/ui/api/state?key=${key}`, { headers: { authorization: null, cookie: pair } })).status).toBe(401);
    expect((await node.api('/ui/api/events', { headers: { authorization: null, cookie: pair } })).status).toBe(401);
    expect((await node.api(`/ui/api/events?key=not-${key}`, { headers: { authorization: null, cookie: pair } })).status).toBe(401);
    // Near miss: the event stream with its key in the query (an EventSource sends no headers) is served.
    const stream = new AbortController();
    const events = await fetch(`${node.origin}/ui/api/events?key=${key}`, { headers: { cookie: pair }, signal: stream.signal });
    expect(events.status).toBe(200);
    stream.abort();
    expect((await node.api('/ui/api/sessions/x/close', { body: {}, headers: { authorization: null, cookie: pair, origin: node.origin } })).status).toBe(401);
    expect((await node.api('/ui/logout', { body: {}, headers: { ...withKey, origin: node.origin } })).status).toBe(200);
    expect((await node.api('/ui/api/state', { headers: withKey })).status).toBe(401);
  });

  it.each<[string, Record<string, string | null>, number]>([
    ['no Origin', { origin: null }, 403],
    ['an Origin allowed for MCP but not the dashboard itself (same site for cookies)', { origin: 'http://localhost:5173' }, 403],
    ['a form content type', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
  ])('a login with %s is refused', async (_name, headers, status) => {
    expect((await login(ADMIN, headers)).status).toBe(status);
  });
});

describe('state changes by cookie need the dashboard own Origin (CSRF); by bearer they do not', () => {
  let cookie: string;
  let key: string;
  beforeAll(async () => {
    const res = await node.api('/ui/login', { body: { token: ADMIN }, headers: { authorization: null, origin: node.origin } });
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    key = ((await res.json()) as { key: string }).key;
  });

  it.each<[string, Record<string, string | null>, number]>([
    ['no Origin', {}, 403],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['an allowed MCP origin', { origin: 'http://localhost:5173' }, 403],
    ['text/plain (a simple cross-origin request)', { origin: 'SELF', 'content-type': 'text/plain' }, 415],
    ['the own Origin (the near miss)', { origin: 'SELF' }, 404],
  ])('cookie + %s', async (_name, headers, status) => {
    const origin = headers['origin'] === 'SELF' ? node.origin : headers['origin'];
    const res = await node.api('/ui/api/sessions/no-such-session/close', { body: {}, headers: { ...headers, origin: origin ?? null, authorization: null, cookie, 'x-tw-login-key': key } });
    expect(res.status).toBe(status);
    if (status === 404) expect(await res.json()).toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('the admin bearer without any Origin reaches the action', async () => {
    const res = await node.api('/ui/api/sessions/no-such-session/close', { body: {} });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('GET never changes state', async () => {
    expect((await node.api('/ui/api/sessions/x/close')).status).toBe(404);
  });
});

describe('a node without the dashboard', () => {
  it('serves no /ui at all, not even the page', async () => {
    const plain = await startDashboardNode({ dashboard: false });
    try {
      for (const path of ['/ui', '/ui/app.js', '/ui/api/state']) expect((await plain.api(path)).status, path).toBe(404);
      expect((await plain.api('/metrics')).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

/** A raw request, so Host can be anything (fetch sets its own). */
function raw(path: string, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  const target = new URL(node.origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path, method, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('rebinding, floods and oversized bodies', () => {
  it.each([
    ['a foreign Host (DNS rebinding) with the admin bearer', '/ui/api/state', 'GET', { host: 'evil.example', authorization: `Bearer ${ADMIN}` }],
    ['a foreign Host for the page itself', '/ui', 'GET', { host: 'evil.example' }],
    ['a foreign Origin on the event stream', '/ui/api/events', 'GET', { origin: 'http://evil.example', authorization: `Bearer ${ADMIN}` }],
  ])('%s: 403 before the dashboard sees it', async (_name, path, method, headers) => {
    expect(await raw(path, method, headers)).toBe(403);
  });

  it('a POST body over 16 KiB is 413, and answers nothing', async () => {
    const res = await node.api('/ui/api/approvals/x', { body: JSON.stringify({ decision: 'allow', pad: 'x'.repeat(20_000) }) });
    expect(res.status).toBe(413);
  });

  it('at most 16 event streams at once; the next is 503', async () => {
    const streams = await Promise.all(Array.from({ length: 16 }, () => node.api('/ui/api/events')));
    try {
      expect(streams.map((r) => r.status)).toEqual(Array(16).fill(200));
      const extra = await node.api('/ui/api/events');
      expect(extra.status).toBe(503);
    } finally {
      await Promise.all(streams.map((r) => r.body?.cancel()));
    }
  });
});
