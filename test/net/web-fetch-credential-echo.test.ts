import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialBroker } from '../../runtime/net/egress/credential-broker.js';
import { webFetch } from '../../runtime/net/web-fetch.js';

// Secrets coming back through web_fetch (attack family 23): a credential host echoing the request must not put the
// value, in any form, into the tool result, whatever the caller asks for (compression, ranges, a maxBytes that cuts
// the body inside the value); the host itself still gets the value.
const SECRET = 'fetch-echo-SECRET-value-0123456789';
let server: Server;
let port = 0;
let seen: IncomingHttpHeaders[] = [];
const broker = createCredentialBroker('s-fetch-echo', { TOKEN: { value: SECRET, hosts: ['creds.test'] } });
const placeholder = broker.placeholders['TOKEN'] ?? '';
const lookup = async (): Promise<string[]> => ['127.0.0.1'];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const value = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const body = Buffer.from(`start ${value} ${Buffer.from(value).toString('base64')} ${encodeURIComponent(value)} end`);
    const route = req.url ?? '';
    if (route === '/gzip') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync(body));
    else if (route === '/br') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' }).end(zlib.brotliCompressSync(body));
    else if (route === '/zstd') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'zstd', 'x-echo': value }).end(body);
    else if (route === '/binary') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.concat([Buffer.from([0, 1, 2]), body]));
    else if (route.startsWith('/loop')) res.writeHead(302, { location: `/loop?t=${encodeURIComponent(value)}` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain', etag: `"${value}"` }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetchFrom = (host: string, path: string, extra: { maxBytes?: number; headers?: Record<string, string> } = {}) =>
  webFetch(
    { url: `http://${host}:${port}${path}`, headers: { authorization: `Bearer ${placeholder}`, ...extra.headers }, ...(extra.maxBytes === undefined ? {} : { maxBytes: extra.maxBytes }) },
    { net: [`creds.test:${port}`, `other.test:${port}`], timeoutMs: 5_000, maxBytes: 100_000, lookup, substitute: broker.substituteFetch },
  );

/** No run of 8 or more characters of the value, as written, base64'd or percent-encoded. */
function expectNoPiece(text: string): void {
  for (let at = 0; at + 8 <= SECRET.length; at += 1) expect(text).not.toContain(SECRET.slice(at, at + 8));
  expect(text).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 12));
}

describe('web_fetch from a credential host', () => {
  it.each(['/plain', '/gzip', '/br', '/binary'])('%s: the result holds the placeholder, never the value', async (route) => {
    seen = [];
    const result = await fetchFrom('creds.test', route, { headers: { 'accept-encoding': 'gzip, br', range: 'bytes=0-5' } });
    expect(result.isError, result.content[0]?.text).toBeUndefined();
    expect(seen[0]).toMatchObject({ authorization: `Bearer ${SECRET}`, 'accept-encoding': 'identity' });
    expect(seen[0]?.range).toBeUndefined();
    expectNoPiece(JSON.stringify(result));
    if (route !== '/binary') expect(result.structuredContent).toMatchObject({ body: expect.stringContaining(`start ${placeholder} `) });
  });

  it('a maxBytes that cuts the body inside the value drops what could be its start', async () => {
    for (let cut = 'start '.length + 1; cut < 'start '.length + SECRET.length + 2; cut += 3) {
      const result = await fetchFrom('creds.test', '/plain', { maxBytes: cut });
      expect(result.structuredContent).toMatchObject({ truncated: true });
      expectNoPiece(JSON.stringify(result));
    }
  });

  it('an answer in a coding it cannot look into is IO_ERROR, the message free of the value', async () => {
    const result = await fetchFrom('creds.test', '/zstd');
    expect(result.code).toBe('IO_ERROR');
    expectNoPiece(JSON.stringify(result));
  });

  it('an error that quotes a redirect target is masked too', async () => {
    const result = await fetchFrom('creds.test', '/loop');
    expect(result.code).toBe('IO_ERROR');
    expect(result.content[0]?.text).toContain('redirected more than');
    expectNoPiece(JSON.stringify(result));
  });
});

describe('near miss: another host', () => {
  it('gets the placeholder, and the caller\'s accept-encoding and range, untouched', async () => {
    seen = [];
    const result = await fetchFrom('other.test', '/gzip', { headers: { 'accept-encoding': 'gzip', range: 'bytes=0-5' } });
    expect(seen[0]).toMatchObject({ authorization: `Bearer ${placeholder}`, 'accept-encoding': 'gzip', range: 'bytes=0-5' });
    expect(result.structuredContent).toMatchObject({ headers: { 'content-encoding': 'gzip' } });
  });
});

// The one reference syntax: `${credential.NAME}` names a session credential in web_fetch's headers as in an MCP
// server's, under the same host rule; what comes back holds the session's placeholder.
describe('${credential.NAME} in web_fetch headers', () => {
  it.each([
    ['the credential host, as written', 'creds.test', `Bearer ${SECRET}`],
    ['the credential host in another case with a trailing dot', 'CREDS.Test.', `Bearer ${SECRET}`],
    ['another host: the placeholder, never the value', 'other.test', `Bearer ${placeholder}`],
  ])('%s', async (_name, host, sent) => {
    seen = [];
    const result = await webFetch(
      { url: `http://${host}:${port}/plain`, headers: { authorization: 'Bearer ${credential.TOKEN}' } },
      { net: [`creds.test:${port}`, `other.test:${port}`], timeoutMs: 5_000, maxBytes: 100_000, lookup, substitute: broker.substituteFetch },
    );
    expect(seen[0]?.authorization).toBe(sent);
    expectNoPiece(JSON.stringify(result));
  });

  it('a name the session does not have is sent as written', async () => {
    seen = [];
    await webFetch(
      { url: `http://creds.test:${port}/plain`, headers: { authorization: 'Bearer ${credential.NOPE}' } },
      { net: [`creds.test:${port}`], timeoutMs: 5_000, maxBytes: 100_000, lookup, substitute: broker.substituteFetch },
    );
    expect(seen[0]?.authorization).toBe('Bearer ${credential.NOPE}');
  });
});
