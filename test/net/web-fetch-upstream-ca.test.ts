import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders, RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialBroker } from '../../runtime/net/egress/credential-broker.js';
import { createUpstreamTrust } from '../../runtime/net/upstream-trust.js';
import { webFetch } from '../../runtime/net/web-fetch.js';
import type { ToolResult } from '../../src/tool-result.js';
import { makePrivateCa, type PrivateCa } from '../helpers/private-ca.js';

// A private upstream CA for intercepted hosts, through web_fetch, against real TLS servers on loopback: trusted for
// a credential's host only (not for another host, not after a redirect elsewhere), and never instead of
// verification (a wrong name or another CA is still refused).
const SECRET = 'upstream-ca-S3cret-value';
let ca: PrivateCa;
let rogue: PrivateCa;
const servers: https.Server[] = [];
const seen: IncomingHttpHeaders[] = [];
let good = 0;
let wrongName = 0;
let rogueSigned = 0;
const lookup = async (): Promise<string[]> => ['127.0.0.1'];

async function serve(options: https.ServerOptions): Promise<number> {
  const handler: RequestListener = (req, res) => {
    seen.push(req.headers);
    if (req.url?.startsWith('/to-other')) res.writeHead(302, { location: `https://other.test:${good}/plain` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${String(req.headers.authorization)}`);
  };
  const server = https.createServer(options, handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  ca = makePrivateCa('Private upstream CA');
  rogue = makePrivateCa('Rogue CA');
  good = await serve(ca.leaf(['api.test', 'other.test']));
  wrongName = await serve(ca.leaf(['wrong.test']));
  rogueSigned = await serve(rogue.leaf(['api.test']));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  ca.cleanup();
  rogue.cleanup();
});

function fetchWith(trusted: boolean, url: string): Promise<ToolResult> {
  const broker = createCredentialBroker('s-ca', { TOKEN: { value: SECRET, hosts: ['api.test'] } }, trusted ? { upstreamTrust: createUpstreamTrust([ca.certPem]) } : {});
  return webFetch(
    { url, headers: { authorization: '${credential.TOKEN}' } },
    { net: ['api.test', 'other.test'], timeoutMs: 5_000, maxBytes: 100_000, lookup, substitute: broker.substituteFetch },
  );
}

describe('web_fetch and upstreamCa', () => {
  it('a credential host whose certificate the private CA signed is reached, with the value', async () => {
    seen.length = 0;
    const result = await fetchWith(true, `https://api.test:${good}/plain`);
    expect(result.isError, result.content[0]?.text).toBeUndefined();
    expect(seen.at(-1)?.authorization).toBe(SECRET);
  });

  it('without the option the same host is refused, as before', async () => {
    seen.length = 0;
    const result = await fetchWith(false, `https://api.test:${good}/plain`);
    expect(result).toMatchObject({ isError: true, code: 'IO_ERROR' });
    expect(seen).toEqual([]);
  });

  it.each([
    ['a host without credentials, signed by the private CA', () => `https://other.test:${good}/plain`],
    ['a redirect from the credential host to a host without credentials', () => `https://api.test:${good}/to-other`],
    ['the credential host presenting a certificate for another name', () => `https://api.test:${wrongName}/plain`],
    ['the credential host presenting a certificate of another CA', () => `https://api.test:${rogueSigned}/plain`],
  ])('with the option, %s is refused (IO_ERROR)', async (_name, url) => {
    const before = seen.length;
    const result = await fetchWith(true, url());
    expect(result).toMatchObject({ isError: true, code: 'IO_ERROR' });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    // Only the first hop of the redirect reached a server; nothing after it.
    expect(seen.length - before).toBe(url().includes('to-other') ? 1 : 0);
  });
});
