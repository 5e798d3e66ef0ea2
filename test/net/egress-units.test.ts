import { describe, expect, it } from 'vitest';
import { credentialsCover, parseCredentials, substituteHeader, type PlacedCredential } from '../../src/net/egress/credentials.js';
import { parseSocksGreeting, parseSocksRequest } from '../../src/net/egress/socks5.js';
import { buildBwrapArgs } from '../../src/sandbox/bwrap-args.js';
import { egressArgs, egressEnv } from '../../src/sandbox/egress-args.js';

const placed: PlacedCredential[] = [{ name: 'GH', value: 'ghp-real', hosts: ['api.github.com', '*.githubusercontent.com:443'], placeholder: 'tw-GH-1' }];

describe('credentials option', () => {
  it('parses names, values and hosts, canonicalizing hosts', () => {
    expect(parseCredentials({ GH: { value: 'v', hosts: ['API.GitHub.com'] } })).toEqual({ GH: { value: 'v', hosts: ['api.github.com'] } });
  });

  it.each<[string, unknown, string]>([
    ['a non-object', [], 'credentials must be an object'],
    ['a bad name', { 'A-B': { value: 'v', hosts: ['h'] } }, 'not an environment variable name'],
    ['an empty value', { A: { value: '', hosts: ['h'] } }, 'credentials.A.value'],
    ['a value with a newline', { A: { value: 'a\nb', hosts: ['h'] } }, 'credentials.A.value'],
    ['no hosts', { A: { value: 'v', hosts: [] } }, 'credentials.A.hosts'],
    ['every host', { A: { value: 'v', hosts: ['*'] } }, "not '*'"],
    ['an unknown key', { A: { value: 'v', hosts: ['h'], scope: 1 } }, 'unknown keys scope'],
  ])('refuses %s with INVALID_OPTIONS, never naming the value', (_name, value, message) => {
    expect(() => parseCredentials(value)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(message) }));
    try {
      parseCredentials({ A: { value: 'secret-value', hosts: 'nope' } });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret-value');
    }
  });
});

describe('placeholder substitution', () => {
  it('replaces the placeholder for the credential hosts only', () => {
    expect(substituteHeader('Bearer tw-GH-1', 'authorization', placed, 'api.github.com', 443)).toBe('Bearer ghp-real');
    expect(substituteHeader('token tw-GH-1', 'x-token', placed, 'raw.githubusercontent.com', 443)).toBe('token ghp-real');
    expect(substituteHeader('Bearer tw-GH-1', 'authorization', placed, 'raw.githubusercontent.com', 80)).toBe('Bearer tw-GH-1');
    expect(substituteHeader('Bearer tw-GH-1', 'authorization', placed, 'evil.test', 443)).toBe('Bearer tw-GH-1');
  });

  it('rewrites a Basic authorization inside its base64', () => {
    const basic = `Basic ${Buffer.from('x-access-token:tw-GH-1').toString('base64')}`;
    expect(substituteHeader(basic, 'authorization', placed, 'api.github.com', 443)).toBe(`Basic ${Buffer.from('x-access-token:ghp-real').toString('base64')}`);
  });

  it('tells which hosts are intercepted', () => {
    expect(credentialsCover(placed, 'api.github.com', 443)).toBe(true);
    expect(credentialsCover(placed, 'github.com', 443)).toBe(false);
  });
});

describe('SOCKS5 parsing', () => {
  it('waits for whole messages and reads each address type', () => {
    expect(parseSocksGreeting(Uint8Array.from([5]))).toBeUndefined();
    expect(parseSocksGreeting(Uint8Array.from([5, 2, 2, 0]))).toEqual({ length: 4, noAuthOffered: true });
    expect(parseSocksGreeting(Uint8Array.from([4, 1, 0]))).toHaveProperty('malformed');
    expect(parseSocksRequest(Uint8Array.from([5, 1, 0, 1, 127, 0, 0]))).toBeUndefined();
    expect(parseSocksRequest(Uint8Array.from([5, 1, 0, 1, 127, 0, 0, 1, 0x1f, 0x90]))).toEqual({ length: 10, command: 1, host: '127.0.0.1', port: 8080 });
    const name = Buffer.from('example.com');
    expect(parseSocksRequest(Uint8Array.from([5, 1, 0, 3, name.length, ...name, 1, 187]))).toEqual({ length: 7 + name.length, command: 1, host: 'example.com', port: 443 });
    expect(parseSocksRequest(Uint8Array.from([5, 1, 0, 4, ...Array(15).fill(0), 1, 0, 80]))).toMatchObject({ host: '[0:0:0:0:0:0:0:1]', port: 80 });
    expect(parseSocksRequest(Uint8Array.from([5, 1, 0, 9, 0]))).toHaveProperty('malformed');
  });
});

describe('sandbox layout for egress', () => {
  const scope = { socketPath: '/tmp/d/egress.sock', socat: '/usr/bin/socat', placeholders: { GH: 'tw-GH-1' }, caBundle: '/tmp/d/b.pem', caCert: '/tmp/d/c.pem' };

  it('points every proxy setting at the loopback forwarder and trusts the session CA', () => {
    const env = egressEnv(scope);
    expect(env).toMatchObject({ http_proxy: 'http://127.0.0.1:3128', HTTPS_PROXY: 'http://127.0.0.1:3128', ALL_PROXY: 'socks5h://127.0.0.1:3128', NO_PROXY: '', GH: 'tw-GH-1', SSL_CERT_FILE: '/run/toolwarden/ca-bundle.pem', NODE_EXTRA_CA_CERTS: '/run/toolwarden/ca.pem' });
    expect(egressEnv({ socketPath: 's', socat: 'x', placeholders: {} })).not.toHaveProperty('SSL_CERT_FILE');
  });

  it('binds the socket read-only and starts socat before the command', () => {
    const args = egressArgs(scope);
    expect(args.mounts[0]).toEqual({ dest: '/run/toolwarden/egress.sock', args: ['--ro-bind', '/tmp/d/egress.sock', '/run/toolwarden/egress.sock'] });
    const argv = args.wrap(['sh', '-c', 'curl x']);
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv[2]).toContain("'/usr/bin/socat' TCP-LISTEN:3128,bind=127.0.0.1");
    expect(argv.slice(3)).toEqual(['toolwarden-egress', 'sh', '-c', 'curl x']);
  });

  it('is part of the layout for a host list, keeping --unshare-net, and absent with every host', () => {
    const sys = { existing: (p: string) => p === '/ws' || p === '/usr', readLink: () => undefined };
    const base = { workspaceRoot: '/ws', readRoots: [], blockedInWorkspace: [], egress: scope };
    const listed = buildBwrapArgs({ ...base, net: ['api.test'] }, '/ws', ['true'], sys);
    expect(listed).toContain('--unshare-net');
    expect(listed.join(' ')).toContain('--ro-bind /tmp/d/egress.sock /run/toolwarden/egress.sock');
    expect(listed.slice(listed.indexOf('--') + 1, listed.indexOf('--') + 3)).toEqual(['/bin/sh', '-c']);
    const every = buildBwrapArgs({ ...base, net: ['*'] }, '/ws', ['true'], sys);
    expect(every).not.toContain('--unshare-net');
    expect(every.join(' ')).not.toContain('egress');
  });
});
