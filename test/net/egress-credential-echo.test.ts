import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createUpstreamTrust } from '../../runtime/net/upstream-trust.js';
import { createCredentialBroker, type CredentialBroker } from '../../runtime/net/egress/credential-broker.js';
import { startEgressProxy, type EgressProxy } from '../../runtime/net/egress/egress-proxy.js';
import { createSessionCa } from '../../runtime/net/egress/session-ca.js';

// Secrets coming back (attack family 23) at the proxy: whatever a credential host sends back (headers, bodies,
// chunked, compressed, split across reads) reaches the client with every form of the value replaced by the
// placeholder. Other hosts' answers pass untouched, and the credential host still receives the real value.
const SECRET = 'echo/secret+value=1&Z~x';
/** Percent-encoding with lower-case hex digits, as some servers write it. */
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
const forms = [
  SECRET,
  encodeURIComponent(SECRET),
  lowerHex(encodeURIComponent(SECRET)),
  Buffer.from(SECRET).toString('base64').replace(/=+$/, ''),
  Buffer.from(SECRET).toString('base64url'),
  Buffer.from(`a:${SECRET}`).toString('base64').slice(4, -4),
  Buffer.from(`ab:${SECRET}`).toString('base64').slice(4, -4),
  JSON.stringify(SECRET).slice(1, -1).replaceAll('/', '\\/'),
  [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  [...SECRET].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
];

let dir = '';
let plain: http.Server;
let secure: https.Server;
let plainPort = 0;
let securePort = 0;
let broker: CredentialBroker;
let proxy: EgressProxy;
let caCert = '';
const received: string[] = [];
const events: AuditEvent[] = [];
const upstreamCa = createSessionCa('upstream');

/** The echo: the value as it came (its Bearer token), in many forms, then sent back as the route asks. */
function echo(req: IncomingMessage, res: ServerResponse): void {
  const auth = req.headers.authorization ?? '';
  received.push(auth);
  const value = auth.replace(/^Bearer /, '');
  const body = Buffer.from(
    [
      value,
      encodeURIComponent(value),
      lowerHex(encodeURIComponent(value)),
      Buffer.from(value).toString('base64'),
      Buffer.from(value).toString('base64url'),
      Buffer.from(`a:${value}`).toString('base64'),
      Buffer.from(`ab:${value}`).toString('base64'),
      JSON.stringify({ value }).replaceAll('/', '\\/'),
      [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      [...value].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
      `range=${req.headers.range ?? 'none'}`,
    ].join('\n'),
  );
  const headers = { 'content-type': 'text/plain', 'x-echo': auth, 'x-echo-b64': Buffer.from(value).toString('base64'), [`x-${value.replace(/[^a-z]/gi, '')}`]: 'named' };
  const route = (req.url ?? '/').split('?')[0];
  if (route === '/gzip') res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(zlib.gzipSync(body));
  else if (route === '/deflate') res.writeHead(200, { ...headers, 'content-encoding': 'deflate' }).end(zlib.deflateSync(body));
  else if (route === '/deflate-raw') res.writeHead(200, { ...headers, 'content-encoding': 'deflate' }).end(zlib.deflateRawSync(body));
  else if (route === '/br') res.writeHead(200, { ...headers, 'content-encoding': 'br' }).end(zlib.brotliCompressSync(body));
  else if (route === '/gzip-br') res.writeHead(200, { ...headers, 'content-encoding': 'gzip, br' }).end(zlib.brotliCompressSync(zlib.gzipSync(body)));
  else if (route === '/zstd') res.writeHead(200, { ...headers, 'content-encoding': 'zstd' }).end(body);
  else if (route === '/range') {
    // Honours Range, as file and object stores do: two requests for two halves would carry half a value each.
    const range = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (range === null) res.writeHead(200, headers).end(body);
    else res.writeHead(206, { ...headers, 'content-range': `bytes ${range[1]}-${range[2]}/${body.length}` }).end(body.subarray(Number(range[1]), Number(range[2]) + 1));
  } else if (route === '/trickle') {
    // One byte per write, each after the last left, so the value crosses every read and chunk boundary.
    res.writeHead(200, { ...headers, 'transfer-encoding': 'chunked' });
    let at = 0;
    const next = (): void => {
      if (at >= body.length) {
        res.end();
        return;
      }
      res.write(body.subarray(at, at + 1), () => setImmediate(next));
      at += 1;
    };
    next();
  } else res.writeHead(200, headers).end(body);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-egress-echo-'));
  plain = http.createServer(echo);
  secure = https.createServer({ SNICallback: (host, cb) => cb(null, upstreamCa.contextFor(host)) }, echo);
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  plainPort = (plain.address() as AddressInfo).port;
  securePort = (secure.address() as AddressInfo).port;
  broker = createCredentialBroker('s-echo', { TOKEN: { value: SECRET, hosts: [`127.0.0.1:${plainPort}`, 'api.test'] } }, { upstreamTrust: createUpstreamTrust([upstreamCa.certPem]) });
  caCert = readFileSync(broker.writeCa(dir).caCert, 'utf8');
  proxy = await startEgressProxy({
    sessionId: 's-echo', net: [`127.0.0.1:${plainPort}`, `api.test:${securePort}`, `other.test:${plainPort}`], socketPath: join(dir, 'egress.sock'),
    audit: (event) => void events.push(event), interceptor: broker, lookup: async () => ['127.0.0.1'],
  });
});

afterAll(async () => {
  await proxy.close();
  for (const server of [plain, secure]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

function collect(request: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.end();
  });
}

const token = (): string => `Bearer ${broker.placeholders['TOKEN'] ?? ''}`;

/** A plain absolute-URI request through the proxy's socket. */
function viaHttp(host: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Answer> {
  return collect(http.request({ socketPath: proxy.socketPath, path: `http://${host}:${plainPort}${path}`, headers: { authorization: token(), 'accept-encoding': 'gzip, deflate, br', ...headers }, agent: false }));
}

/** HTTPS to api.test through CONNECT, trusting the session CA as the sandbox does. */
async function viaTunnel(path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Answer> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const connect = http.request({ socketPath: proxy.socketPath, method: 'CONNECT', path: `api.test:${securePort}`, agent: false });
    connect.once('connect', (_res, tunnel) => resolve(tunnel));
    connect.once('error', reject);
    connect.end();
  });
  return collect(https.request({
    host: 'api.test', port: securePort, path, headers: { authorization: token(), 'accept-encoding': 'gzip, deflate, br', ...headers },
    createConnection: () => tls.connect({ socket, servername: 'api.test', ca: caCert }),
  }));
}

function expectNoForm(answer: Answer): void {
  const everything = `${JSON.stringify(answer.headers)}\n${answer.body.toString('latin1')}`;
  for (const form of forms) expect(everything).not.toContain(form);
}

describe('responses of a credential host carry the placeholder, never the value', () => {
  it.each(['/plain', '/trickle', '/gzip', '/deflate', '/deflate-raw', '/br', '/gzip-br', '/range'])('plain HTTP %s: every form replaced, body readable without decoding', async (route) => {
    received.length = 0;
    const answer = await viaHttp('127.0.0.1', route, { range: 'bytes=0-9' });
    expect(answer.status).toBe(200);
    expect(received).toEqual([`Bearer ${SECRET}`]);
    expectNoForm(answer);
    expect(answer.headers['content-encoding']).toBeUndefined();
    const text = answer.body.toString();
    expect(text.split('\n')[0]).toBe(broker.placeholders['TOKEN']);
    expect(text).toContain('range=none');
    expect(answer.headers['x-echo']).toBe(token());
  });

  it.each(['/plain', '/trickle', '/gzip', '/br'])('intercepted HTTPS %s: every form replaced', async (route) => {
    received.length = 0;
    const answer = await viaTunnel(route);
    expect(answer.status).toBe(200);
    expect(received).toEqual([`Bearer ${SECRET}`]);
    expectNoForm(answer);
    expect(answer.body.toString().split('\n')[0]).toBe(broker.placeholders['TOKEN']);
  });

  it('refuses an answer in a coding it cannot look into (502), and audits it', async () => {
    events.length = 0;
    const answer = await viaHttp('127.0.0.1', '/zstd');
    expect(answer.status).toBe(502);
    expect(answer.headers['x-toolwarden-code']).toBe('IO_ERROR');
    expect(answer.body.toString()).toContain('zstd');
    expectNoForm(answer);
    expect(events.at(-1)).toMatchObject({ decision: 'error', code: 'IO_ERROR' });
  });

  it('keeps the audit free of the value', () => {
    for (const form of forms) expect(JSON.stringify(events)).not.toContain(form);
  });
});

describe('near misses', () => {
  it('a host without credentials gets the placeholder and its answer passes untouched, still compressed', async () => {
    received.length = 0;
    const answer = await viaHttp('other.test', '/gzip');
    expect(received).toEqual([token()]);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(answer.body).toString().split('\n')[0]).toBe(broker.placeholders['TOKEN']);
  });

  it('a Range request to a host without credentials keeps its Range', async () => {
    const answer = await viaHttp('other.test', '/range', { range: 'bytes=0-3' });
    expect(answer.status).toBe(206);
    expect(answer.body.toString()).toBe(broker.placeholders['TOKEN']?.slice(0, 4));
  });
});

describe('the Host header inside an intercepted tunnel', () => {
  it('must name the tunnel: another host is 421 and nothing is sent upstream', async () => {
    received.length = 0;
    const answer = await viaTunnel('/plain', { host: `other.test:${securePort}` });
    expect(answer.status).toBe(421);
    expect(answer.headers['x-toolwarden-code']).toBe('INVALID_ARGS');
    expect(received).toEqual([]);
  });

  it('near miss: the tunnel\'s own authority, in any case, is forwarded', async () => {
    const answer = await viaTunnel('/plain', { host: `API.test:${securePort}` });
    expect(answer.status).toBe(200);
  });
});
