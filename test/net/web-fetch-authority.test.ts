import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webFetch } from '../../runtime/net/web-fetch.js';

// web_fetch reads its URL and every redirect by the same authority grammar as the egress proxy: a spelling that only
// a URL parser's repairs turn into the listed host is refused before anything is connected.
let server: Server;
let port = 0;
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const to = /^\/to\/(.*)$/.exec(req.url ?? '')?.[1];
    if (to !== undefined) res.writeHead(302, { location: decodeURIComponent(to).replace('PORT', String(port)) }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`host ${req.headers.host ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetch = (url: string) => webFetch({ url: url.replace('PORT', String(port)) }, { net: [`127.0.0.1:${port}`], timeoutMs: 5_000, maxBytes: 10_000, lookup: async () => ['127.0.0.1'] });

describe('web_fetch authorities', () => {
  it.each(['http://0x7f.1:PORT/', 'http://2130706433:PORT/', 'http://0177.0.0.1:PORT/', 'http://127.1:PORT/', 'http://127.0.0.1.:PORT/', 'http://%31%32%37.0.0.1:PORT/', 'http://127.0.0.1:0PORT/'])(
    '%s is refused with INVALID_ARGS and connects nowhere',
    async (url) => {
      hits = [];
      const result = await fetch(url);
      expect(result.code).toBe('INVALID_ARGS');
      expect(hits).toEqual([]);
    },
  );

  it.each(['http://0x7f.1:PORT/x', '//127.0.0.1:0PORT/x', 'http:\\\\127.0.0.1:0PORT\\x'])('a redirect to %s is refused and not followed', async (location) => {
    hits = [];
    const result = await fetch(`http://127.0.0.1:PORT/to/${encodeURIComponent(location)}`);
    expect(result.code).toBe('INVALID_ARGS');
    expect(hits).toHaveLength(1);
  });

  it('near miss: the listed authority, and a redirect to it, are fetched with that Host', async () => {
    const direct = await fetch('http://127.0.0.1:PORT/');
    expect(direct.structuredContent).toMatchObject({ status: 200, body: `host 127.0.0.1:${port}` });
    const redirected = await fetch(`http://127.0.0.1:PORT/to/${encodeURIComponent('//127.0.0.1:PORT/')}`);
    expect(redirected.structuredContent).toMatchObject({ status: 200, body: `host 127.0.0.1:${port}` });
  });
});
