import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/audit-event.js';
import { startEgressProxy, type EgressProxy } from '../../runtime/net/egress/egress-proxy.js';
import {
  exchange, socks4, socks4ReplyCode, socks5Domain, socks5Ipv4, socks5Ipv6, socks5ReplyCode, startTagListener, statusLine, type TagListener,
} from './egress-wire.js';

// One host and port checked, another connected (attack family 22): every entry point of the proxy reads an
// authority by one strict grammar and connects to exactly what it checked. A, B and C listen on loopback; only A and
// C are listed, so any connection B receives is an escape.
let dir = '';
let a: TagListener;
let b: TagListener;
let c: TagListener;
// net lists A and C; `port80` also lists 127.0.0.1:80 (the port a URL parser falls back to when it loses the port).
let listed: EgressProxy;
let port80: EgressProxy;
const events: AuditEvent[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-egress-authority-'));
  [a, b, c] = await Promise.all([startTagListener('A'), startTagListener('B'), startTagListener('C')]);
  const audit = (event: AuditEvent): void => void events.push(event);
  listed = await startEgressProxy({ sessionId: 's-auth', net: [`127.0.0.1:${a.port}`, `127.0.0.1:${c.port}`], socketPath: join(dir, 'listed.sock'), audit });
  port80 = await startEgressProxy({ sessionId: 's-auth-80', net: ['127.0.0.1:80', `127.0.0.1:${a.port}`], socketPath: join(dir, 'port80.sock'), audit });
});

afterAll(async () => {
  await Promise.all([listed.close(), port80.close()]);
  await Promise.all([a.close(), b.close(), c.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `request` and says whether any unlisted port was reached, and what came back. */
async function attempt(proxy: EgressProxy, request: Uint8Array | string): Promise<{ answer: Buffer; reachedB: boolean }> {
  const before = b.hits();
  const answer = await exchange(proxy.socketPath, request);
  return { answer, reachedB: b.hits() !== before || answer.includes('B\n') };
}

/** Done once a listener's greeting came through a tunnel. */
const tagged = (tag: string) => (answer: Buffer): boolean => answer.includes(`${tag}\n`);
const connect = (target: string): string => `CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`;
const get = (url: string, host = '127.0.0.1'): string => `GET ${url} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`;

describe('known escapes: the port checked is the port connected', () => {
  it.each(['#', '/', '?', '\\', ''])('SOCKS5 to the name "127.0.0.1:PA%s" with port PB is refused and reaches nothing', async (delimiter) => {
    const { answer, reachedB } = await attempt(listed, socks5Domain(`127.0.0.1:${a.port}${delimiter}`, b.port));
    expect(reachedB).toBe(false);
    expect(socks5ReplyCode(answer)).toBe(2);
  });

  it.each(['/:PB', '?:PB', '/x:PB', '#:PB', '\\:PB', ':PB/', ':80:PB'])('CONNECT 127.0.0.1%s (80 listed) is refused and reaches nothing', async (rest) => {
    const { answer, reachedB } = await attempt(port80, connect(`127.0.0.1${rest.replace('PB', String(b.port))}`));
    expect(reachedB).toBe(false);
    expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(answer.toString()).not.toContain('200 Connection Established');
  });

  it.each(['#', '/', '?', '\\'])('SOCKS4a to the name "127.0.0.1:PA%s" with port PB is refused and reaches nothing', async (delimiter) => {
    const { answer, reachedB } = await attempt(listed, socks4(`127.0.0.1:${a.port}${delimiter}`, b.port));
    expect(reachedB).toBe(false);
    expect(socks4ReplyCode(answer)).not.toBe(90);
  });
});

// Forms no strict grammar accepts as a host or a port: refused with a reason, never resolved or connected.
const BAD_AUTHORITIES: ReadonlyArray<readonly [string, (pa: number, pb: number) => string]> = [
  ['hex IPv4', (pa) => `0x7f.1:${pa}`],
  ['a 32-bit IPv4 number', (pa) => `2130706433:${pa}`],
  ['octal IPv4', (pa) => `0177.0.0.1:${pa}`],
  ['short IPv4', (pa) => `127.1:${pa}`],
  ['IPv4 with a trailing dot', (pa) => `127.0.0.1.:${pa}`],
  ['percent-encoded host', (pa) => `%31%32%37.0.0.1:${pa}`],
  ['userinfo', (pa) => `a@127.0.0.1:${pa}`],
  ['userinfo naming another port', (pa, pb) => `127.0.0.1:${pb}@127.0.0.1:${pa}`],
  ['a port with a leading zero', (pa) => `127.0.0.1:0${pa}`],
  ['a port with a plus sign', (pa) => `127.0.0.1:+${pa}`],
  ['a port past 65535 that wraps to a listed one', (pa) => `127.0.0.1:${pa + 65536}`],
  ['two ports', (pa, pb) => `127.0.0.1:${pa}:${pb}`],
  ['an empty port', () => '127.0.0.1:'],
  ['no port', () => '127.0.0.1'],
  ['IPv6 with a zone', (pa) => `[fe80::1%25lo]:${pa}`],
  ['a bare IPv6 address', (pa) => `::1:${pa}`],
  ['a space', (pa) => `127.0.0.1 :${pa}`],
];

describe('IP spellings, userinfo and odd ports are refused at every entry point', () => {
  it.each(BAD_AUTHORITIES)('CONNECT with %s: 400 INVALID_ARGS naming the target, nothing reached', async (_name, make) => {
    const target = make(a.port, b.port);
    const beforeA = a.hits();
    const { answer, reachedB } = await attempt(listed, connect(target));
    expect(reachedB).toBe(false);
    expect(a.hits()).toBe(beforeA);
    // A target with a space is not even a request line: Node's parser answers 400 before the proxy sees it.
    if (!target.includes(' ')) {
      expect(statusLine(answer)).toBe('HTTP/1.1 400 Bad Request');
      expect(answer.toString()).toContain('x-toolwarden-code: INVALID_ARGS');
      expect(answer.toString()).toContain(JSON.stringify(target));
    } else expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 400/);
  });

  it.each(BAD_AUTHORITIES.filter(([name]) => !['no port', 'an empty port'].includes(name)))('an absolute-URI request with %s: 400, nothing reached', async (_name, make) => {
    const beforeA = a.hits();
    const { answer, reachedB } = await attempt(listed, get(`http://${make(a.port, b.port)}/`));
    expect(reachedB).toBe(false);
    expect(a.hits()).toBe(beforeA);
    expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 400/);
  });

  it.each(BAD_AUTHORITIES.filter(([name]) => !/port|two ports/.test(name)))('a SOCKS5 name with %s: refused, nothing reached', async (_name, make) => {
    const host = make(a.port, b.port).replace(/:\d+$/, '');
    const beforeA = a.hits();
    const { answer, reachedB } = await attempt(listed, socks5Domain(host, a.port));
    expect(reachedB).toBe(false);
    expect(a.hits()).toBe(beforeA);
    expect(socks5ReplyCode(answer)).toBe(2);
  });

  it('refuses names with bytes outside ASCII, NUL, or more than 253 characters over SOCKS5', async () => {
    for (const name of [Buffer.from('127.0.0.1\0.evil', 'latin1'), Buffer.from('caf\xe9.test', 'latin1'), Buffer.from(`${`${'a'.repeat(63)}.`.repeat(3)}${'a'.repeat(62)}`)]) {
      const { answer } = await attempt(listed, socks5Domain(name, a.port));
      expect(socks5ReplyCode(answer)).toBe(2);
    }
  });

  it('audits a refused authority as a deny with INVALID_ARGS and the reason', async () => {
    events.length = 0;
    await attempt(listed, connect(`127.0.0.1:0${a.port}`));
    expect(events.at(-1)).toMatchObject({ tool: 'egress', decision: 'deny', code: 'INVALID_ARGS', args: { via: 'connect' } });
    expect(events.at(-1)?.result).toMatch(/port/);
  });
});

describe('the Host header cannot redirect a request', () => {
  it('an absolute-URI request goes to the URI authority, whatever its Host header says', async () => {
    const { answer, reachedB } = await attempt(listed, get(`http://127.0.0.1:${a.port}/`, `127.0.0.1:${b.port}`));
    expect(reachedB).toBe(false);
    // A is a raw TCP listener: it greets with its tag, which the proxy returns as a malformed HTTP answer (502).
    expect(a.hits()).toBeGreaterThan(0);
    expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 (502|200)/);
  });
});

describe('near misses: listed authorities in their canonical forms still work', () => {
  it.each<[string, (proxy: EgressProxy) => Promise<boolean>]>([
    ['CONNECT 127.0.0.1:PA', async (p) => (await exchange(p.socketPath, connect(`127.0.0.1:${a.port}`), tagged('A'))).toString().includes('200 Connection Established\r\n\r\nA\n')],
    ['CONNECT 127.0.0.1:PC', async (p) => (await exchange(p.socketPath, connect(`127.0.0.1:${c.port}`), tagged('C'))).toString().includes('C\n')],
    ['SOCKS5 to the IPv4 address 127.0.0.1, port PA', async (p) => {
      const answer = await exchange(p.socketPath, socks5Ipv4([127, 0, 0, 1], a.port), tagged('A'));
      return socks5ReplyCode(answer) === 0 && answer.includes('A\n');
    }],
    ['SOCKS5 to the name "127.0.0.1", port PA', async (p) => {
      const answer = await exchange(p.socketPath, socks5Domain('127.0.0.1', a.port), tagged('A'));
      return socks5ReplyCode(answer) === 0 && answer.includes('A\n');
    }],
    ['SOCKS4 to 127.0.0.1, port PA', async (p) => {
      const answer = await exchange(p.socketPath, socks4([127, 0, 0, 1], a.port), tagged('A'));
      return socks4ReplyCode(answer) === 90 && answer.includes('A\n');
    }],
    ['SOCKS4a to the name "127.0.0.1", port PA', async (p) => {
      const answer = await exchange(p.socketPath, socks4('127.0.0.1', a.port), tagged('A'));
      return socks4ReplyCode(answer) === 90 && answer.includes('A\n');
    }],
  ])('%s reaches it', async (_name, reach) => {
    expect(await reach(listed)).toBe(true);
  });

  it('an unlisted port is still refused by net, not by the grammar (403 NET_DENIED)', async () => {
    const { answer, reachedB } = await attempt(listed, connect(`127.0.0.1:${b.port}`));
    expect(reachedB).toBe(false);
    expect(answer.toString()).toMatch(/^HTTP\/1\.1 403[\s\S]*x-toolwarden-code: NET_DENIED/);
  });

  it('an IPv4-mapped IPv6 literal is a valid literal: refused because it is not listed, with its canonical form', async () => {
    const mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1];
    const { answer, reachedB } = await attempt(listed, socks5Ipv6(mapped, a.port));
    expect(reachedB).toBe(false);
    expect(socks5ReplyCode(answer)).toBe(2);
    expect(events.at(-1)).toMatchObject({ code: 'NET_DENIED', args: { host: '[::ffff:7f00:1]' } });
  });
});
