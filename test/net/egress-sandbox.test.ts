import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import type { NetPermission } from '../../src/net/net-permission.js';
import { createSandbox } from '../../runtime/sandbox/create-sandbox.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { startSessionEgress, type SessionEgress, type SessionEgressOptions } from '../../runtime/net/egress/session-egress.js';
import { createUpstreamTrust } from '../../runtime/net/upstream-trust.js';
import { createCredentialBroker } from '../../runtime/net/egress/credential-broker.js';
import { createSessionCa } from '../../runtime/net/egress/session-ca.js';

const detection = await detectSandbox();
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };
let base = '';
let ws = '';
const servers: Server[] = [];
let allowedPort = 0;
let otherPort = 0;
let tlsPort = 0;
const hits = { allowed: 0, other: 0, tls: 0 };
const seen: Record<'allowed' | 'other' | 'tls', IncomingHttpHeaders[]> = { allowed: [], other: [], tls: [] };
// What each request carried beyond its headers: its target and its body.
const sent: Record<'allowed' | 'other' | 'tls', { url: string; body: string }[]> = { allowed: [], other: [], tls: [] };
const SECRET = `real-secret-${process.pid}-value`;
// The "public" HTTPS server's own CA, which only the proxy trusts (as it trusts the host's roots in production).
const upstreamCa = createSessionCa('upstream');

function listen(name: 'allowed' | 'other' | 'tls'): Promise<number> {
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
    hits[name] += 1;
    seen[name].push(req.headers);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Answered once the body is in, so the client never stops sending early.
    req.on('end', () => {
      sent[name].push({ url: req.url ?? '', body: Buffer.concat(chunks).toString() });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` });
        res.end();
        return;
      }
      res.end(`${name} server`);
    });
  };
  const server = name === 'tls' ? createTlsServer({ SNICallback: (host, cb) => cb(null, upstreamCa.contextFor(host)) }, handler) : createServer(handler);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

// Names under .test resolve to the test servers' address, as a rebinding DNS server would answer.
const lookup = async (host: string): Promise<string[]> => (host.endsWith('.test') ? ['127.0.0.1'] : [host === 'localhost' ? '127.0.0.1' : host]);

async function withEgress<T>(net: NetPermission, body: (egress: SessionEgress, events: AuditEvent[]) => Promise<T>, extra: Partial<SessionEgressOptions> = {}): Promise<T> {
  const events: AuditEvent[] = [];
  const egress = await startSessionEgress({ sessionId: 's-egress', user: 'alice', net, audit: (event) => events.push(event), commands: () => ['curl'], lookup, ...extra });
  try {
    return await body(egress, events);
  } finally {
    await egress.close();
  }
}

/** A connection is audited when the proxy sees it close, which may be just after the command has exited. */
function settled(events: readonly AuditEvent[], count: number): Promise<void> {
  return vi.waitFor(() => expect(events.length).toBeGreaterThanOrEqual(count), { timeout: 3_000, interval: 20 });
}

function run(egress: SessionEgress, net: NetPermission, script: string): Promise<{ code: number; out: string }> {
  const { sandbox } = createSandbox('required', detection);
  const [program = '', ...args] = sandbox.wrap(['/bin/sh', '-c', script], { workspaceRoot: ws, readRoots: [], blockedInWorkspace: [], net, egress: egress.scope }, ws);
  return new Promise((resolve) => {
    execFile(program, args, { env: ENV, timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: `${stdout}${stderr}` });
    });
  });
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'tw-egress-'));
  ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  allowedPort = await listen('allowed');
  otherPort = await listen('other');
  tlsPort = await listen('tls');
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.runIf(detection.available)('egress proxy for sandboxed commands', () => {
  it('lets curl reach the listed host and port only, and audits each connection', async () => {
    const net = [`127.0.0.1:${allowedPort}`];
    await withEgress(net, async (egress, events) => {
      const before = { ...hits };
      const allowed = await run(egress, net, `curl -sS -m 5 http://127.0.0.1:${allowedPort}/`);
      expect(allowed.out).toBe('allowed server');
      const other = await run(egress, net, `curl -sS -m 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:${otherPort}/`);
      expect(other.out).toBe('403');
      const redirected = await run(egress, net, `curl -sS -m 5 -L -o /dev/null -w '%{http_code}' http://127.0.0.1:${allowedPort}/redirect`);
      expect(redirected.out).toBe('403');
      expect(hits.other).toBe(before.other);
      expect(hits.allowed).toBe(before.allowed + 2);
      await settled(events, 4);
      const allowEvents = events.filter((e) => e.decision === 'allow');
      const denyEvents = events.filter((e) => e.decision === 'deny');
      expect(allowEvents).toHaveLength(2);
      expect(denyEvents).toHaveLength(2);
      expect(allowEvents[0]).toMatchObject({ sessionId: 's-egress', user: 'alice', tool: 'egress', rule: `net '127.0.0.1:${allowedPort}'` });
      expect(allowEvents[0]?.args).toMatchObject({ via: 'http', host: '127.0.0.1', port: allowedPort, commands: ['curl'] });
      expect((allowEvents[0]?.args as { bytesIn: number }).bytesIn).toBe('allowed server'.length);
      expect(denyEvents[0]).toMatchObject({ code: 'NET_DENIED', args: { host: '127.0.0.1', port: otherPort } });
    });
  });

  it('tunnels CONNECT and SOCKS5 to the listed host, refuses others, and counts bytes both ways', async () => {
    const net = [`127.0.0.1:${allowedPort}`];
    await withEgress(net, async (_egress, events) => {
      const egress = _egress;
      const connect = await run(egress, net, `curl -sS -m 5 -p http://127.0.0.1:${allowedPort}/`);
      expect(connect.out).toBe('allowed server');
      const socks = await run(egress, net, `curl -sS -m 5 --proxy "$ALL_PROXY" http://127.0.0.1:${allowedPort}/`);
      expect(socks.out).toBe('allowed server');
      const socksOther = await run(egress, net, `curl -sS -m 5 --proxy "$ALL_PROXY" http://127.0.0.1:${otherPort}/ || echo refused`);
      expect(socksOther.out).toContain('refused');
      await settled(events, 3);
      const tunnels = events.filter((e) => e.decision === 'allow');
      expect(tunnels.map((e) => (e.args as { via: string }).via)).toEqual(['connect', 'socks']);
      for (const event of tunnels) {
        const { bytesIn, bytesOut } = event.args as { bytesIn: number; bytesOut: number };
        expect(bytesOut).toBeGreaterThan(0);
        expect(bytesIn).toBeGreaterThan('allowed server'.length);
      }
      expect(events.filter((e) => e.decision === 'deny').map((e) => (e.args as { via: string }).via)).toEqual(['socks']);
    });
  });

  it('refuses the allowed server by IP when only its name is listed', async () => {
    const net = [`localhost:${allowedPort}`];
    await withEgress(net, async (egress, events) => {
      const byName = await run(egress, net, `curl -sS -m 5 http://localhost:${allowedPort}/`);
      expect(byName.out).toBe('allowed server');
      const byIp = await run(egress, net, `curl -sS -m 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:${allowedPort}/`);
      expect(byIp.out).toBe('403');
      expect(events.map((e) => e.decision)).toEqual(['allow', 'deny']);
    });
  });

  it('refuses a name that resolves to loopback unless that name is listed exactly', async () => {
    const net = ['*.example.test', `api.internal.test:${allowedPort}`];
    await withEgress(net, async (egress, events) => {
      const wildcard = await run(egress, net, `curl -sS -m 5 -o /dev/null -w '%{http_code}' http://a.example.test:${allowedPort}/`);
      expect(wildcard.out).toBe('403');
      const exact = await run(egress, net, `curl -sS -m 5 http://api.internal.test:${allowedPort}/`);
      expect(exact.out).toBe('allowed server');
      expect(events[0]).toMatchObject({ decision: 'deny', code: 'NET_DENIED', args: { host: 'a.example.test' } });
      expect(events[1]).toMatchObject({ decision: 'allow', rule: `net 'api.internal.test:${allowedPort}'`, args: { address: '127.0.0.1' } });
    });
  });

  it('fails closed for a program that ignores the proxy settings', async () => {
    const net = [`127.0.0.1:${allowedPort}`];
    await withEgress(net, async (egress, events) => {
      const before = hits.allowed;
      const direct = await run(egress, net, `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${allowedPort}/`);
      expect(direct.code).not.toBe(0);
      expect(hits.allowed).toBe(before);
      expect(events).toHaveLength(0);
    });
  });

  it('puts a credential in requests to its hosts only; the command sees a placeholder', async () => {
    const net = [`127.0.0.1:${allowedPort}`, `127.0.0.1:${otherPort}`];
    const broker = createCredentialBroker('s-egress', { API_TOKEN: { value: SECRET, hosts: [`127.0.0.1:${allowedPort}`] } });
    const placeholder = broker.placeholders['API_TOKEN'] ?? '';
    await withEgress(net, async (egress, events) => {
      const out = await run(egress, net, [
        `curl -sS -m 5 -H "Authorization: Bearer $API_TOKEN" http://127.0.0.1:${allowedPort}/`,
        `curl -sS -m 5 -H "Authorization: Bearer $API_TOKEN" -H "x-api-key: $API_TOKEN" http://127.0.0.1:${otherPort}/`,
        `curl -sS -m 5 -u "me:$API_TOKEN" http://127.0.0.1:${allowedPort}/`,
        'echo; echo "env=$API_TOKEN"',
      ].join('; '));
      expect(out.out).toContain(`env=${placeholder}`);
      expect(seen.allowed.at(-2)?.authorization).toBe(`Bearer ${SECRET}`);
      expect(seen.allowed.at(-1)?.authorization).toBe(`Basic ${Buffer.from(`me:${SECRET}`).toString('base64')}`);
      expect(seen.other.at(-1)?.authorization).toBe(`Bearer ${placeholder}`);
      expect(seen.other.at(-1)?.['x-api-key']).toBe(placeholder);
      expect(JSON.stringify(events)).not.toContain(SECRET);
    }, { interceptor: broker, placeholders: broker.placeholders, writeCa: broker.writeCa });
  });

  it('terminates TLS only for a credential host, with a CA the sandbox trusts; other hosts are tunnelled untouched', async () => {
    const net = [`api.internal.test:${tlsPort}`, `other.internal.test:${tlsPort}`];
    const broker = createCredentialBroker('s-egress', { API_TOKEN: { value: SECRET, hosts: ['api.internal.test'] } }, { upstreamTrust: createUpstreamTrust([upstreamCa.certPem]) });
    await withEgress(net, async (egress, events) => {
      const out = await run(egress, net, `curl -sS -m 5 -H "Authorization: Bearer $API_TOKEN" https://api.internal.test:${tlsPort}/`);
      expect(out.out).toBe('tls server');
      expect(seen.tls.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
      // Untouched: the command sees the server's own certificate, which it does not trust.
      const other = await run(egress, net, `curl -sS -m 5 https://other.internal.test:${tlsPort}/ 2>&1; curl -sS -m 5 -k -v https://other.internal.test:${tlsPort}/ 2>&1 | grep -i 'issuer'`);
      expect(other.out).toMatch(/certificate/i);
      expect(other.out).toContain('toolwarden session upstream');
      await settled(events, 3);
      expect(events.filter((e) => e.decision === 'allow').map((e) => (e.args as { via: string }).via)).toEqual(['https-intercepted', 'connect', 'connect']);
      expect(JSON.stringify(events)).not.toContain(SECRET);
    }, { interceptor: broker, placeholders: broker.placeholders, writeCa: broker.writeCa });
  });

  it('keeps the value out of the sandbox: environment, /proc, files', async () => {
    const net = [`127.0.0.1:${allowedPort}`];
    const broker = createCredentialBroker('s-egress', { API_TOKEN: { value: SECRET, hosts: [`127.0.0.1:${allowedPort}`] } });
    await withEgress(net, async (egress) => {
      const out = await run(egress, net, [
        'env',
        'cat /proc/self/environ | tr "\\0" "\\n"',
        'for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null | tr "\\0" "\\n"; done',
        // The bracket keeps the value itself out of this script (and so out of /proc/*/cmdline).
        `grep -rlE '${SECRET.slice(0, -1)}[${SECRET.slice(-1)}]' /run /tmp /etc "$PWD" 2>/dev/null || echo no-file-has-it`,
      ].join('; '));
      expect(out.out).toContain('API_TOKEN=toolwarden-credential-API_TOKEN-');
      expect(out.out).toContain('no-file-has-it');
      expect(out.out).not.toContain(SECRET);
    }, { interceptor: broker, placeholders: broker.placeholders, writeCa: broker.writeCa });
  });

  it('puts a credential in bodies and queries only where it opted in, for its hosts only', async () => {
    const net = [`127.0.0.1:${allowedPort}`, `127.0.0.1:${otherPort}`];
    const broker = createCredentialBroker('s-egress', {
      API_TOKEN: { value: SECRET, hosts: [`127.0.0.1:${allowedPort}`], in: ['header', 'body', 'query'] },
      HEADER_ONLY: { value: `${SECRET}-header-only`, hosts: [`127.0.0.1:${allowedPort}`] },
    });
    const token = broker.placeholders['API_TOKEN'] ?? '';
    const headerOnly = broker.placeholders['HEADER_ONLY'] ?? '';
    await withEgress(net, async (egress, events) => {
      const body = '{"token":"$API_TOKEN","other":"$HEADER_ONLY"}';
      await run(egress, net, [
        `curl -sS -m 5 -X POST --data-binary "${body.replaceAll('"', '\\"')}" "http://127.0.0.1:${allowedPort}/post?key=$API_TOKEN&h=$HEADER_ONLY"`,
        `curl -sS -m 5 -X POST --data-binary "${body.replaceAll('"', '\\"')}" "http://127.0.0.1:${otherPort}/post?key=$API_TOKEN"`,
      ].join('; '));
      await vi.waitFor(() => expect(sent.other.at(-1)?.url).toContain('/post'), { timeout: 3_000, interval: 20 });
      expect(sent.allowed.at(-1)).toEqual({ url: `/post?key=${encodeURIComponent(SECRET)}&h=${headerOnly}`, body: `{"token":"${SECRET}","other":"${headerOnly}"}` });
      expect(sent.other.at(-1)).toEqual({ url: `/post?key=${token}`, body: `{"token":"${token}","other":"${headerOnly}"}` });
      await settled(events, 2);
      expect(JSON.stringify(events)).not.toContain(SECRET);
    }, { interceptor: broker, placeholders: broker.placeholders, writeCa: broker.writeCa });
  });

  it('puts it in the body of an intercepted HTTPS request, split across TLS records', async () => {
    const net = [`api.internal.test:${tlsPort}`];
    const broker = createCredentialBroker('s-egress', { API_TOKEN: { value: SECRET, hosts: ['api.internal.test'], in: ['body'] } }, { upstreamTrust: createUpstreamTrust([upstreamCa.certPem]) });
    await withEgress(net, async (egress) => {
      // 64 KiB of padding first, so the placeholder crosses chunk boundaries on its way through the proxy.
      const out = await run(egress, net, `{ head -c 65533 /dev/zero | tr '\\0' a; printf '%s' "$API_TOKEN"; } > body.txt; curl -sS -m 5 --data-binary @body.txt https://api.internal.test:${tlsPort}/upload; rm body.txt`);
      expect(out.out).toBe('tls server');
      const last = sent.tls.at(-1);
      expect(last?.body.length).toBe(65533 + SECRET.length);
      expect(last?.body.endsWith(SECRET)).toBe(true);
    }, { interceptor: broker, placeholders: broker.placeholders, writeCa: broker.writeCa });
  });
});
