import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersAfterRedirect } from '../../runtime/net/redirect-headers.js';
import { webFetch } from '../../runtime/net/web-fetch.js';

// Two servers on 127.0.0.1: different ports are different origins. Each redirects on /r?status=N&to=URL and
// echoes what reached it on /echo; app.test names 127.0.0.1, so a redirect to it changes only the host.
let a: Server;
let b: Server;
let portA = 0;
let portB = 0;
const lookup = async (host: string): Promise<string[]> => (host === 'app.test' ? ['127.0.0.1'] : []);

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    if (url.pathname === '/r') {
      const to = (url.searchParams.get('to') ?? '').replace('PORT_A', String(portA)).replace('PORT_B', String(portB));
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
      return;
    }
    const { host: _host, connection: _connection, 'content-length': _length, ...headers } = req.headers;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, headers, body }));
  });
}

beforeAll(async () => {
  a = createServer(handler);
  b = createServer(handler);
  await Promise.all([a, b].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  portA = (a.address() as AddressInfo).port;
  portB = (b.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all([a, b].map((s) => new Promise((resolve) => s.close(resolve))));
});

const CALLER_HEADERS = {
  Authorization: 'Bearer secret-token',
  Cookie: 'session=abc',
  'Proxy-Authorization': 'Basic cHJveHk6cHc=',
  'X-Api-Key': 'key-123',
  'X-Custom-Auth': 'token xyz',
  'X-Trace': 'trace-1',
  Accept: 'application/json',
  'Accept-Language': 'fr',
  'User-Agent': 'my-agent',
  'X-Templated': 'Bearer ${user.token}',
  'Content-Type': 'text/plain',
};

/** Fetches A's redirect to `to` and returns what the final hop received. */
async function hop(status: number, to: string, method = 'GET', body?: string): Promise<{ method: string; headers: Record<string, string>; body: string }> {
  const start = `http://127.0.0.1:${portA}/r?status=${status}&to=${encodeURIComponent(to)}`;
  const result = await webFetch({ url: start, method, headers: CALLER_HEADERS, ...(body === undefined ? {} : { body }) }, { net: ['127.0.0.1', 'app.test'], timeoutMs: 5_000, maxBytes: 100_000, lookup });
  expect(result.isError).toBeUndefined();
  return JSON.parse(String(result.structuredContent?.['body'])) as { method: string; headers: Record<string, string>; body: string };
}

const SAFE = { accept: 'application/json', 'accept-language': 'fr', 'user-agent': 'my-agent' };
const ALL = Object.fromEntries(Object.entries(CALLER_HEADERS).map(([name, value]) => [name.toLowerCase(), value]));
const { 'content-type': _type, ...ALL_BUT_BODY } = ALL;

describe('web_fetch drops caller headers on a redirect that changes origin', () => {
  it.each<[string, number, string, string, string | undefined, Record<string, string>, string]>([
    ['another port, 302 GET', 302, 'http://127.0.0.1:PORT_B/echo', 'GET', undefined, SAFE, 'GET'],
    ['another port, 301 GET', 301, 'http://127.0.0.1:PORT_B/echo', 'GET', undefined, SAFE, 'GET'],
    ['another host on the same port', 302, 'http://app.test:PORT_A/echo', 'GET', undefined, SAFE, 'GET'],
    ['another port, 303 POST turned GET', 303, 'http://127.0.0.1:PORT_B/echo', 'POST', 'x=1', SAFE, 'GET'],
    ['another port, 302 POST turned GET', 302, 'http://127.0.0.1:PORT_B/echo', 'POST', 'x=1', SAFE, 'GET'],
    ['another port, 307 POST keeping the body', 307, 'http://127.0.0.1:PORT_B/echo', 'POST', 'x=1', { ...SAFE, 'content-type': 'text/plain' }, 'POST'],
    ['another port, 308 PUT keeping the body', 308, 'http://127.0.0.1:PORT_B/echo', 'PUT', 'x=1', { ...SAFE, 'content-type': 'text/plain' }, 'PUT'],
    ['two hops, back to the first origin', 302, `http://127.0.0.1:PORT_B/r?status=302&to=${encodeURIComponent('http://127.0.0.1:PORT_A/echo')}`, 'GET', undefined, SAFE, 'GET'],
  ])('%s: only the safelist arrives', async (_name, status, to, method, body, expected, arrivedMethod) => {
    const seen = await hop(status, to, method, body);
    expect(seen.method).toBe(arrivedMethod);
    expect(seen.headers).toEqual(expected);
    for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-templated']) expect(seen.headers).not.toHaveProperty(name);
  });

  it.each<[string, number, string, string | undefined, Record<string, string>, string]>([
    ['a same-origin 302 GET keeps every header', 302, 'GET', undefined, ALL, ''],
    ['a same-origin 307 POST keeps every header and the body', 307, 'POST', 'x=1', ALL, 'x=1'],
    ['a same-origin 303 POST turned GET keeps every header but the body type', 303, 'POST', 'x=1', ALL_BUT_BODY, ''],
  ])('near miss: %s', async (_name, status, method, body, expected, arrivedBody) => {
    const seen = await hop(status, `http://127.0.0.1:PORT_A/echo`, method, body);
    expect(seen.headers).toEqual(expected);
    expect(seen.body).toBe(arrivedBody);
  });

  it('sends the default user agent across origins when the caller set none', async () => {
    const start = `http://127.0.0.1:${portA}/r?status=302&to=${encodeURIComponent(`http://127.0.0.1:${portB}/echo`)}`;
    const result = await webFetch({ url: start, headers: { authorization: 'Bearer t' } }, { net: ['127.0.0.1'], timeoutMs: 5_000, maxBytes: 100_000, lookup });
    expect(JSON.parse(String(result.structuredContent?.['body']))).toMatchObject({ headers: { 'user-agent': 'toolwarden-web-fetch' } });
    expect(JSON.parse(String(result.structuredContent?.['body'])).headers).not.toHaveProperty('authorization');
  });
});

describe('headersAfterRedirect', () => {
  const caller = { authorization: 'Bearer t', cookie: 'a=b', 'proxy-authorization': 'x', accept: '*/*', 'x-key': 'k', 'user-agent': '${user.token}' };
  it.each<[string, string, string, Record<string, string>]>([
    ['a scheme change on the same host and port', 'http://h.test:8443/a', 'https://h.test:8443/b', { accept: '*/*' }],
    ['an https downgrade', 'https://h.test/a', 'http://h.test/b', { accept: '*/*' }],
    ['a default port spelled out is the same origin', 'https://h.test/a', 'https://h.test:443/b', caller],
    ['a path change only', 'https://h.test/a', 'https://h.test/b?x', caller],
  ])('%s', (_name, from, to, expected) => {
    expect(headersAfterRedirect(caller, new URL(from), new URL(to), 'none')).toEqual(expected);
  });

  // A safelisted header naming a session credential is a credential header all the same.
  it.each(['${credential.GH}', 'Bearer ${credential.GH} x', '${credential.not-a-name}'])('drops a safelisted header holding %s across origins', (value) => {
    expect(headersAfterRedirect({ accept: '*/*', 'user-agent': value }, new URL('https://h.test/a'), new URL('https://other.test/b'), 'none')).toEqual({ accept: '*/*' });
  });
});
