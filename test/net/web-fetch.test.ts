import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetPermission } from '../../src/net/net-permission.js';
import { webFetch } from '../../runtime/net/web-fetch.js';

let server: Server;
let port = 0;
const seen: string[] = [];
const DNS: Record<string, string[]> = { 'app.test': ['127.0.0.1'], 'denied.test': ['127.0.0.1'], 'public.test': ['8.8.8.8'] };
const lookup = async (host: string): Promise<string[]> => DNS[host] ?? [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
    const route = req.url ?? '';
    if (route === '/ok') res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'a=b' }).end('hello');
    else if (route === '/gbk') res.writeHead(200, { 'content-type': 'text/plain; charset=GBK' }).end(iconv.encode('中文测试', 'gbk'));
    else if (route === '/big') res.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(100_000));
    else if (route === '/bin') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 255]));
    else if (route === '/missing') res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
    else if (route === '/to-ok') res.writeHead(302, { location: '/ok' }).end();
    else if (route === '/to-denied') res.writeHead(302, { location: `http://denied.test:${port}/ok` }).end();
    else if (route === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else if (route === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (route === '/echo' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ body, auth: req.headers['authorization'] })));
    } // '/slow' never answers
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetchWith = (net: NetPermission, url: string, extra: { maxBytes?: number; timeoutMs?: number; method?: string; body?: string; headers?: Record<string, string> } = {}) =>
  webFetch(
    { url: url.replace('PORT', String(port)), ...(extra.method ? { method: extra.method } : {}), ...(extra.body ? { body: extra.body } : {}), ...(extra.headers ? { headers: extra.headers } : {}), ...(extra.maxBytes ? { maxBytes: extra.maxBytes } : {}) },
    { net, timeoutMs: extra.timeoutMs ?? 5_000, maxBytes: 1_000_000, lookup },
  );

describe('webFetch host and address checks', () => {
  it.each<[string, NetPermission, string, string | number]>([
    ['an IP literal listed exactly', ['127.0.0.1'], 'http://127.0.0.1:PORT/ok', 200],
    ['a named host listed exactly may resolve to loopback', ['app.test'], 'http://app.test:PORT/ok', 200],
    ['a wildcard host resolving to loopback is refused', ['*.test'], 'http://app.test:PORT/ok', 'NET_DENIED'],
    ['a wildcard host is allowed when its loopback address is listed', ['*.test', `127.0.0.1`], 'http://app.test:PORT/ok', 200],
    ["'*' does not open loopback IP literals", ['*'], 'http://127.0.0.1:PORT/ok', 'NET_DENIED'],
    ["'*' does not open named hosts resolving to loopback", ['*'], 'http://app.test:PORT/ok', 'NET_DENIED'],
    ['a host not on the list', ['other.test'], 'http://app.test:PORT/ok', 'NET_DENIED'],
    ['the wrong port', ['app.test:1'], 'http://app.test:PORT/ok', 'NET_DENIED'],
    ['no network permission', false, 'http://127.0.0.1:PORT/ok', 'NET_DENIED'],
    ['a redirect to a denied host', ['app.test'], 'http://app.test:PORT/to-denied', 'NET_DENIED'],
    ['a redirect to file:', ['app.test'], 'http://app.test:PORT/to-file', 'INVALID_ARGS'],
    ['a redirect loop', ['app.test'], 'http://app.test:PORT/loop', 'IO_ERROR'],
    ['a relative redirect on an allowed host', ['app.test'], 'http://app.test:PORT/to-ok', 200],
    ['a non-http scheme', ['*'], 'ftp://app.test/x', 'INVALID_ARGS'],
    ['credentials in the URL', ['app.test'], 'http://u:p@app.test:PORT/ok', 'INVALID_ARGS'],
    ['a host that does not resolve', ['nowhere.test'], 'http://nowhere.test:PORT/ok', 'IO_ERROR'],
  ])('%s', async (_name, net, url, expected) => {
    const result = await fetchWith(net, url);
    if (typeof expected === 'number') {
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ status: expected, body: 'hello' });
    } else {
      expect(result.code).toBe(expected);
    }
  });

  it('names the host and the allowlist when it refuses', async () => {
    const result = await fetchWith(['other.test', '*.example.com'], 'http://app.test:PORT/ok');
    expect(result.content[0]?.text).toMatch(/app\.test:\d+ is not allowed.*other\.test, \*\.example\.com/);
  });

  it('never sends the request a refused redirect points to', async () => {
    seen.length = 0;
    await fetchWith(['app.test'], 'http://app.test:PORT/to-denied');
    expect(seen).toEqual([`app.test:${port}/to-denied`]);
  });

  it('connects to the vetted address, not whatever the name resolves to later', async () => {
    let calls = 0;
    const rebinding = async (): Promise<string[]> => (calls++ === 0 ? ['127.0.0.1'] : ['10.9.9.9']);
    const result = await webFetch({ url: `http://app.test:${port}/ok` }, { net: ['app.test'], timeoutMs: 5_000, maxBytes: 1000, lookup: rebinding });
    expect(result.structuredContent).toMatchObject({ status: 200 });
    expect(calls).toBe(1);
  });
});

describe('webFetch responses', () => {
  it('returns a non-2xx status as a normal result', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/missing');
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ status: 404, body: 'nope', truncated: false });
  });

  it('keeps only safe headers and reports the final URL', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/to-ok');
    expect(result.structuredContent).toMatchObject({ finalUrl: `http://127.0.0.1:${port}/ok`, headers: { 'content-type': 'text/plain' } });
    expect(result.structuredContent?.['headers']).not.toHaveProperty('set-cookie');
  });

  it('truncates at maxBytes', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/big', { maxBytes: 1000 });
    expect(result.structuredContent).toMatchObject({ truncated: true, bytes: 1000, body: 'a'.repeat(1000) });
  });

  it('ends with TIMEOUT when the server does not answer in time', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/slow', { timeoutMs: 300 });
    expect(result.code).toBe('TIMEOUT');
  });

  it('decodes a text body by its charset', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/gbk');
    expect(result.structuredContent).toMatchObject({ body: '中文测试', charset: 'gbk', bodyEncoding: 'text' });
  });

  it('returns a small binary body as base64', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/bin');
    expect(result.structuredContent).toMatchObject({ body: 'AAEC/w==', bodyEncoding: 'base64', bytes: 4 });
  });

  it('sends a POST body and headers', async () => {
    const result = await fetchWith(['127.0.0.1'], 'http://127.0.0.1:PORT/echo', { method: 'post', body: 'x=1', headers: { Authorization: 'Bearer t' } });
    expect(result.structuredContent).toMatchObject({ status: 201 });
    expect(JSON.parse(String(result.structuredContent?.['body']))).toEqual({ body: 'x=1', auth: 'Bearer t' });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a body with GET', { url: 'http://127.0.0.1/', body: 'x' }],
    ['an unknown method', { url: 'http://127.0.0.1/', method: 'TRACE' }],
    ['a Host header', { url: 'http://127.0.0.1/', headers: { Host: 'evil' } }],
    ['a header value with CRLF', { url: 'http://127.0.0.1/', headers: { 'x-a': 'b\r\nx: y' } }],
    ['a zero maxBytes', { url: 'http://127.0.0.1/', maxBytes: 0 }],
  ])('refuses %s with INVALID_ARGS', async (_name, req) => {
    const result = await webFetch(req as never, { net: ['127.0.0.1'], timeoutMs: 1000, maxBytes: 1000, lookup });
    expect(result.code).toBe('INVALID_ARGS');
  });
});
