import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { startEgressProxy, type EgressProxy } from '../../runtime/net/egress/egress-proxy.js';

let dir = '';
let server: Server;
let port = 0;
let proxy: EgressProxy;
const events: AuditEvent[] = [];
const open: Socket[] = [];
const LIMIT = 2;

/** Opens a client connection to the proxy socket and sends `first`; resolves with the socket and the first answer. */
function dial(first: Uint8Array | string): Promise<{ socket: Socket; answer: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.socketPath);
    open.push(socket);
    socket.once('error', reject);
    socket.once('data', (answer: Buffer) => resolve({ socket, answer }));
    socket.write(first);
  });
}

const connectRequest = (): string => `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`;

/** A SOCKS5 greeting (no auth) and CONNECT to 127.0.0.1:port in one write; the answer holds the method choice and the reply. */
function socksRequest(): Uint8Array {
  return Uint8Array.from([5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, port >> 8, port & 0xff]);
}

async function socksReply(): Promise<number> {
  const { answer, socket } = await dial(socksRequest());
  const bytes = answer.length >= 4 ? answer : Buffer.concat([answer, await new Promise<Buffer>((resolve) => socket.once('data', resolve))]);
  return bytes[3] ?? -1;
}

/** A tunnel that holds a slot: retried while the proxy has not yet seen an earlier test's sockets close. */
async function holdSlot(): Promise<Socket> {
  let held: Socket | undefined;
  await vi.waitFor(async () => {
    const { socket, answer } = await dial(connectRequest());
    expect(answer.toString()).toContain('200 Connection Established');
    held = socket;
  }, { timeout: 3_000, interval: 50 });
  return held!;
}

function closeAll(): Promise<void> {
  const closing = open.splice(0).map((socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : (socket.once('close', () => resolve()), socket.destroy()))));
  return Promise.all(closing).then(() => undefined);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-egress-limit-'));
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
  proxy = await startEgressProxy({
    sessionId: 's-limit', user: 'alice', net: [`127.0.0.1:${port}`], socketPath: join(dir, 'egress.sock'), audit: (event) => events.push(event), maxConnections: LIMIT,
  });
});

afterAll(async () => {
  await closeAll();
  await proxy.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('a session has at most limits.egressMaxConnections egress connections at once', () => {
  it('has a default', () => {
    expect(DEFAULT_LIMITS.egressMaxConnections).toBe(64);
  });

  it.each<[string, () => Promise<string>]>([
    ['HTTP CONNECT: 429 with EGRESS_LIMIT', async () => (await dial(connectRequest())).answer.toString()],
    ['absolute-URI HTTP: 429 with EGRESS_LIMIT', async () => (await dial(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`)).answer.toString()],
    ['SOCKS5: reply 2, not allowed', async () => `socks reply ${await socksReply()}`],
  ])('refuses one more: %s, audited; a slot freed is usable again', async (_name, attempt) => {
    events.length = 0;
    const held: Socket[] = [];
    for (let i = 0; i < LIMIT; i += 1) held.push(await holdSlot());
    const refused = await attempt();
    expect(refused).toMatch(/429 Too Many Requests[\s\S]*x-toolwarden-code: EGRESS_LIMIT|socks reply 2/);
    await vi.waitFor(() => expect(events.some((e) => e.code === 'EGRESS_LIMIT')).toBe(true), { timeout: 3_000, interval: 20 });
    expect(events.find((e) => e.code === 'EGRESS_LIMIT')).toMatchObject({
      sessionId: 's-limit', user: 'alice', tool: 'egress', decision: 'deny', rule: 'limits.egressMaxConnections', args: { host: '127.0.0.1', port },
    });
    // Near miss: once one of the held connections closes, the next one gets through.
    held[0]!.destroy();
    await holdSlot();
    await closeAll();
  });

  it('refuses a non-integer or zero cap', async () => {
    await expect(startEgressProxy({ sessionId: 's', net: false, socketPath: join(dir, 'x.sock'), audit: () => undefined, maxConnections: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('maxConnections') });
  });
});

describe('a session moves at most limits.egressMaxBytes through its proxy (0: unlimited)', () => {
  const BODY = 'x'.repeat(200_000);
  let big: Server;
  let bigPort = 0;

  beforeAll(async () => {
    big = createServer((_req, res) => res.end(BODY));
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', () => resolve()));
    bigPort = (big.address() as AddressInfo).port;
  });
  afterAll(async () => {
    big.closeAllConnections();
    await new Promise((resolve) => big.close(resolve));
  });

  /**
   * GET through the proxy, in absolute form or inside a CONNECT tunnel; resolves with what arrived before the proxy
   * closed the connection.
   */
  function fetchThrough(socketPath: string, via: 'http' | 'connect' = 'http'): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(socketPath);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', () => undefined);
      const get = (target: string): string => `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1:${bigPort}\r\nconnection: close\r\n\r\n`;
      if (via === 'http') socket.write(get(`http://127.0.0.1:${bigPort}/`));
      else socket.write(`CONNECT 127.0.0.1:${bigPort} HTTP/1.1\r\nhost: 127.0.0.1:${bigPort}\r\n\r\n${get('/')}`);
    });
  }

  async function withProxy(maxBytes: number | undefined, body: (socketPath: string, audit: AuditEvent[]) => Promise<void>): Promise<void> {
    const audit: AuditEvent[] = [];
    const started = await startEgressProxy({ sessionId: 's-bytes', net: [`127.0.0.1:${bigPort}`], socketPath: join(dir, `bytes-${maxBytes ?? 'default'}.sock`), audit: (e) => audit.push(e), ...(maxBytes === undefined ? {} : { maxBytes }) });
    try {
      await body(started.socketPath, audit);
    } finally {
      await started.close();
    }
  }

  it('has a default of 0, unlimited', () => {
    expect(DEFAULT_LIMITS.egressMaxBytes).toBe(0);
  });

  it.each(['http', 'connect'] as const)('cuts the %s connection that passes the cap, audits it, and refuses the next with EGRESS_LIMIT', async (via) => {
    await withProxy(50_000, async (socketPath, audit) => {
      const cut = await fetchThrough(socketPath, via);
      expect(cut.length).toBeLessThan(BODY.length);
      await vi.waitFor(() => expect(audit.some((e) => e.rule === 'limits.egressMaxBytes')).toBe(true), { timeout: 3_000, interval: 20 });
      expect(audit.find((e) => e.rule === 'limits.egressMaxBytes')).toMatchObject({ decision: 'deny', code: 'EGRESS_LIMIT', args: { host: '127.0.0.1', port: bigPort } });
      const next = await fetchThrough(socketPath);
      expect(next).toMatch(/^HTTP\/1.1 429[\s\S]*x-toolwarden-code: EGRESS_LIMIT[\s\S]*limits.egressMaxBytes/);
    });
  });

  it.each<[string, number | undefined]>([
    ['under the cap', 1_000_000],
    ['unlimited (0)', 0],
    ['the default', undefined],
  ])('near miss: %s, the whole body arrives', async (_name, maxBytes) => {
    await withProxy(maxBytes, async (socketPath) => {
      expect(await fetchThrough(socketPath)).toContain(BODY);
      expect(await fetchThrough(socketPath, 'connect')).toContain(BODY);
    });
  });
});
