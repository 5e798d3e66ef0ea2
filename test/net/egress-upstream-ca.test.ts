import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialBroker, type CredentialBrokerOptions } from '../../runtime/net/egress/credential-broker.js';
import { startEgressProxy } from '../../runtime/net/egress/egress-proxy.js';
import { createUpstreamTrust } from '../../runtime/net/upstream-trust.js';
import { makePrivateCa, type PrivateCa } from '../helpers/private-ca.js';

// A private upstream CA at the egress proxy, against real TLS servers on loopback: the proxy trusts it when it
// connects to an intercepted (credential) host, still checks the name and the issuer, and never hands it to the
// sandbox or uses it for a host it only tunnels.
const SECRET = 'proxy-upstream-ca-S3cret';
let dir = '';
let ca: PrivateCa;
let rogue: PrivateCa;
const servers: https.Server[] = [];
const seen: IncomingHttpHeaders[] = [];
const ports = { good: 0, wrongName: 0, rogue: 0 };

async function serve(options: https.ServerOptions): Promise<number> {
  const server = https.createServer(options, (req, res) => {
    seen.push(req.headers);
    res.writeHead(200).end('upstream ok');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-egress-upstream-ca-'));
  ca = makePrivateCa('Private upstream CA');
  rogue = makePrivateCa('Rogue CA');
  ports.good = await serve(ca.leaf(['api.test', 'other.test']));
  ports.wrongName = await serve(ca.leaf(['wrong.test']));
  ports.rogue = await serve(rogue.leaf(['api.test']));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  ca.cleanup();
  rogue.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number;
  /** The issuer the client saw on the certificate inside the tunnel. */
  issuer: string;
}

/** CONNECT host:port through a fresh proxy, then one HTTPS request inside, trusting the session CA and `trust`. */
async function through(options: CredentialBrokerOptions, host: string, port: number, trust: readonly string[] = []): Promise<Outcome> {
  const broker = createCredentialBroker('s-upstream-ca', { TOKEN: { value: SECRET, hosts: ['api.test'] } }, options);
  const sessionCa = readFileSync(broker.writeCa(dir).caCert, 'utf8');
  const proxy = await startEgressProxy({
    sessionId: 's-upstream-ca', net: [`api.test:${port}`, `other.test:${port}`], socketPath: join(dir, `egress-${port}-${host}.sock`),
    audit: () => undefined, interceptor: broker, lookup: async () => ['127.0.0.1'],
  });
  try {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const connect = http.request({ socketPath: proxy.socketPath, method: 'CONNECT', path: `${host}:${port}`, agent: false });
      connect.once('connect', (_res, tunnel) => resolve(tunnel));
      connect.once('error', reject);
      connect.end();
    });
    let issuer = '';
    return await new Promise<Outcome>((resolve, reject) => {
      const secure = tls.connect({ socket, servername: host, ca: [sessionCa, ...trust] }, () => void (issuer = String(secure.getPeerCertificate().issuer.CN)));
      const request = https.request({ host, port, path: '/', headers: { authorization: `Bearer ${broker.placeholders['TOKEN'] ?? ''}` }, createConnection: () => secure }, (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0, issuer }));
      });
      request.once('error', reject);
      request.end();
    });
  } finally {
    await proxy.close();
  }
}

const trusting = (): CredentialBrokerOptions => ({ upstreamTrust: createUpstreamTrust([ca.certPem]) });

describe('the egress proxy and upstreamCa', () => {
  it('an intercepted host signed by the private CA is reached, with the value', async () => {
    seen.length = 0;
    await expect(through(trusting(), 'api.test', ports.good)).resolves.toMatchObject({ status: 200, issuer: 'toolwarden session s-upstream-ca' });
    expect(seen.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('without the option the same host is refused (502), as before', async () => {
    seen.length = 0;
    await expect(through({}, 'api.test', ports.good)).resolves.toMatchObject({ status: 502 });
    expect(seen).toEqual([]);
  });

  it.each([
    ['a certificate for another name', 'wrongName' as const],
    ['a certificate of another CA', 'rogue' as const],
  ])('with the option, an intercepted host presenting %s is refused (502)', async (_name, which) => {
    seen.length = 0;
    await expect(through(trusting(), 'api.test', ports[which])).resolves.toMatchObject({ status: 502 });
    expect(seen).toEqual([]);
  });

  it('a host without credentials is only tunnelled: the client sees the server\'s own certificate and must trust it itself', async () => {
    seen.length = 0;
    await expect(through(trusting(), 'other.test', ports.good)).rejects.toThrow(/certificate/i);
    await expect(through(trusting(), 'other.test', ports.good, [ca.certPem])).resolves.toMatchObject({ status: 200, issuer: 'Private upstream CA' });
    expect(seen.at(-1)?.authorization).not.toContain(SECRET);
  });

  it('the sandbox\'s CA files never hold the private CA', () => {
    const broker = createCredentialBroker('s-upstream-ca', { TOKEN: { value: SECRET, hosts: ['api.test'] } }, trusting());
    const files = broker.writeCa(dir);
    const body = ca.certPem.split('\n').slice(1, 3).join('\n');
    expect(readFileSync(files.caBundle, 'utf8')).not.toContain(body);
    expect(readFileSync(files.caCert, 'utf8')).not.toContain(body);
  });
});
