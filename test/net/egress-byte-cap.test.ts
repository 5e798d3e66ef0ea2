import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { createUpstreamTrust } from '../../runtime/net/upstream-trust.js';
import { createCredentialBroker } from '../../runtime/net/egress/credential-broker.js';
import { startEgressProxy, type EgressProxyOptions } from '../../runtime/net/egress/egress-proxy.js';
import { createSessionCa } from '../../runtime/net/egress/session-ca.js';
import { exchange, socks5Ipv4 } from './egress-wire.js';

// Resources (attack family 13): limits.egressMaxBytes counts every byte the session exchanges with the outside,
// both ways: request lines, headers, bodies, TLS records and tunnels; limits.egressMaxConnections counts every
// connection out, not only the sandbox's connections to the proxy. Servers here count what actually reached them.
let dir = '';
let plain: http.Server;
let secure: https.Server;
let plainPort = 0;
let securePort = 0;
const upstreamSockets: Socket[] = [];
let open = 0;
let mostOpen = 0;
const upstreamCa = createSessionCa('upstream-cap');

/** Bytes that crossed the servers' sockets, both ways, since `from` sockets had been accepted. */
const upstreamBytes = (from = 0): number => upstreamSockets.slice(from).reduce((sum, s) => sum + s.bytesRead + s.bytesWritten, 0);
/** Bytes that reached the servers (what the proxy sent out) since `from` sockets had been accepted. */
const upstreamReceived = (from = 0): number => upstreamSockets.slice(from).reduce((sum, s) => sum + s.bytesRead, 0);

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  req.once('end', () => {
    if (req.url?.startsWith('/big-headers') === true) res.writeHead(200, { 'x-big': 'h'.repeat(6_000) }).end('ok');
    else if (req.url?.startsWith('/slow') === true) setTimeout(() => res.end('slow'), 600);
    else res.end('ok');
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-egress-cap-'));
  plain = http.createServer({ maxHeaderSize: 64 * 1024 }, answer);
  secure = https.createServer({ maxHeaderSize: 64 * 1024, SNICallback: (host, cb) => cb(null, upstreamCa.contextFor(host)) }, answer);
  for (const server of [plain, secure]) {
    server.on('connection', (socket: Socket) => {
      upstreamSockets.push(socket);
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      socket.once('close', () => (open -= 1));
    });
  }
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  plainPort = (plain.address() as AddressInfo).port;
  securePort = (secure.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const server of [plain, secure]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

let proxies = 0;
async function withProxy(options: Partial<EgressProxyOptions>, body: (socketPath: string, audit: AuditEvent[]) => Promise<void>): Promise<void> {
  const audit: AuditEvent[] = [];
  proxies += 1;
  const proxy = await startEgressProxy({
    sessionId: 's-cap', net: [`127.0.0.1:${plainPort}`, `api.test:${securePort}`], socketPath: join(dir, `cap-${proxies}.sock`), audit: (e) => void audit.push(e), lookup: async () => ['127.0.0.1'], ...options,
  });
  try {
    await body(proxy.socketPath, audit);
  } finally {
    await proxy.close();
  }
}

/** An absolute-URI GET with a long URL and long headers (about 8 KB), on a fresh connection; resolves with the status line. */
function heavyRequest(socketPath: string, n: number): Promise<string> {
  const request = `GET http://127.0.0.1:${plainPort}/${'u'.repeat(4_000)}?n=${n} HTTP/1.1\r\nhost: 127.0.0.1:${plainPort}\r\nx-pad: ${'p'.repeat(4_000)}\r\nconnection: close\r\n\r\n`;
  return exchange(socketPath, request).then((answer) => answer.toString('latin1').split('\r\n')[0] ?? '');
}

describe('limits.egressMaxBytes counts every byte, both ways', () => {
  it('ten plain-HTTP requests with 8 KB of URL and headers each: the server gets at most the cap, the rest 429', async () => {
    await withProxy({ maxBytes: 2_000 }, async (socketPath, audit) => {
      const from = upstreamSockets.length;
      const statuses: string[] = [];
      for (let n = 0; n < 10; n += 1) statuses.push(await heavyRequest(socketPath, n));
      expect(upstreamBytes(from)).toBeLessThanOrEqual(2_000);
      expect(statuses.filter((s) => s.startsWith('HTTP/1.1 200'))).toEqual([]);
      expect(statuses.at(-1)).toBe('HTTP/1.1 429 Too Many Requests');
      expect(audit.filter((e) => e.code === 'EGRESS_LIMIT').length).toBeGreaterThanOrEqual(10);
      expect(audit.find((e) => e.code === 'EGRESS_LIMIT')).toMatchObject({ decision: 'deny', rule: 'limits.egressMaxBytes' });
    });
  });

  it('response headers count: an answer with 6 KB of headers does not come back under a 2 KB cap', async () => {
    await withProxy({ maxBytes: 2_000 }, async (socketPath) => {
      const from = upstreamSockets.length;
      const answer = await exchange(socketPath, `GET http://127.0.0.1:${plainPort}/big-headers HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
      expect(answer.toString()).not.toContain('h'.repeat(6_000));
      await vi.waitFor(() => expect(upstreamBytes(from)).toBeGreaterThan(0), { timeout: 2_000, interval: 10 });
      // What the server wrote is more than the cap, but what the proxy passed on is not.
      expect(answer.length).toBeLessThanOrEqual(2_000);
    });
  });

  it('an intercepted HTTPS request counts its TLS records: a 2 KB cap does not carry an 8 KB request', async () => {
    const broker = createCredentialBroker('s-cap', { TOKEN: { value: 'cap-secret-value', hosts: ['api.test'] } }, { upstreamTrust: createUpstreamTrust([upstreamCa.certPem]) });
    const ca = readFileSync(broker.writeCa(dir).caCert, 'utf8');
    await withProxy({ maxBytes: 2_000, interceptor: broker }, async (socketPath, audit) => {
      const from = upstreamSockets.length;
      const tunnel = await new Promise<Socket>((resolve, reject) => {
        const connect = http.request({ socketPath, method: 'CONNECT', path: `api.test:${securePort}`, agent: false });
        connect.once('connect', (_res, socket) => resolve(socket));
        connect.once('error', reject);
        connect.end();
      });
      const status = await new Promise<number>((resolve) => {
        const request = https.request({
          host: 'api.test', port: securePort, path: `/${'u'.repeat(4_000)}`, headers: { 'x-pad': 'p'.repeat(4_000) },
          createConnection: () => tls.connect({ socket: tunnel, servername: 'api.test', ca }),
        });
        request.once('response', (response) => resolve(response.statusCode ?? 0));
        request.once('error', () => resolve(-1));
        request.end();
      });
      expect(status).not.toBe(200);
      // A server's TLS flight is sent before the proxy can refuse it: what reached the server is what is bounded.
      expect(upstreamReceived(from)).toBeLessThanOrEqual(2_000);
      await vi.waitFor(() => expect(audit.some((e) => e.code === 'EGRESS_LIMIT')).toBe(true), { timeout: 2_000, interval: 10 });
    });
  });

  it.each<[string, (socketPath: string) => Promise<Buffer>]>([
    ['CONNECT', (socketPath) => exchange(socketPath, `CONNECT 127.0.0.1:${plainPort} HTTP/1.1\r\nhost: x\r\n\r\nGET /${'u'.repeat(4_000)} HTTP/1.1\r\nhost: x\r\n\r\n`)],
    ['SOCKS5', (socketPath) => exchange(socketPath, Buffer.concat([socks5Ipv4([127, 0, 0, 1], plainPort), Buffer.from(`GET /${'u'.repeat(4_000)} HTTP/1.1\r\nhost: x\r\n\r\n`)]))],
  ])('a %s tunnel carries at most the cap', async (_name, send) => {
    await withProxy({ maxBytes: 2_000 }, async (socketPath, audit) => {
      const from = upstreamSockets.length;
      await send(socketPath);
      expect(upstreamBytes(from)).toBeLessThanOrEqual(2_000);
      await vi.waitFor(() => expect(audit.some((e) => e.code === 'EGRESS_LIMIT')).toBe(true), { timeout: 2_000, interval: 10 });
    });
  });

  it('near miss: requests within the cap get through, all of them', async () => {
    await withProxy({ maxBytes: 100_000 }, async (socketPath) => {
      const from = upstreamSockets.length;
      const statuses: string[] = [];
      for (let n = 0; n < 5; n += 1) statuses.push(await heavyRequest(socketPath, n));
      expect(statuses).toEqual(Array<string>(5).fill('HTTP/1.1 200 OK'));
      expect(upstreamBytes(from)).toBeGreaterThan(5 * 8_000);
    });
  });
});

describe('limits.egressMaxConnections counts connections out', () => {
  it('requests pipelined on one client connection open at most the cap upstream at once', async () => {
    await withProxy({ maxConnections: 2 }, async (socketPath) => {
      mostOpen = open;
      const requests = Array.from({ length: 8 }, (_, n) => `GET http://127.0.0.1:${plainPort}/slow?n=${n} HTTP/1.1\r\nhost: x\r\n\r\n`).join('');
      const socket = net.connect(socketPath);
      socket.on('error', () => undefined);
      socket.write(requests);
      await new Promise((resolve) => setTimeout(resolve, 400));
      socket.destroy();
      expect(mostOpen).toBeLessThanOrEqual(2);
    });
  });

  it('near miss: two requests on two connections under a cap of 2 both get through', async () => {
    await withProxy({ maxConnections: 2 }, async (socketPath) => {
      const get = (): Promise<Buffer> => exchange(socketPath, `GET http://127.0.0.1:${plainPort}/ HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
      const answers = await Promise.all([get(), get()]);
      expect(answers.map((a) => a.toString().split('\r\n')[0])).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    });
  });
});
