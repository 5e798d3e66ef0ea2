import { describe, expect, it } from 'vitest';
import { authorityOf, isRefusal, parseAuthority, parseHost, parsePort } from '../../src/net/authority.js';
import { parseHttpUrl } from '../../src/net/fetch-request.js';
import { authorityOfUrl, parseAbsoluteTarget } from '../../src/net/url-authority.js';

// The one grammar every egress entry point reads a host and port by (attack family 22).
describe('parseAuthority: exactly one (host, port) in canonical form', () => {
  it.each<[string, string, number]>([
    ['example.com:443', 'example.com', 443],
    ['API.Example.COM:8080', 'api.example.com', 8080],
    ['example.com.:443', 'example.com', 443],
    ['_dmarc.example.com:1', '_dmarc.example.com', 1],
    ['xn--bcher-kva.de:80', 'xn--bcher-kva.de', 80],
    ['127.0.0.1:65535', '127.0.0.1', 65535],
    ['0.0.0.0:80', '0.0.0.0', 80],
    ['[::1]:80', '[::1]', 80],
    ['[0:0:0:0:0:0:0:1]:80', '[::1]', 80],
    ['[::FFFF:127.0.0.1]:80', '[::ffff:7f00:1]', 80],
    ['[FE80::1]:22', '[fe80::1]', 22],
    [`${'a'.repeat(63)}.com:1`, `${'a'.repeat(63)}.com`, 1],
    ['localhost:3000', 'localhost', 3000],
    ['a-b.c1:9', 'a-b.c1', 9],
  ])('reads %s', (text, host, port) => {
    expect(parseAuthority(text)).toEqual({ host, port });
  });

  it.each<[string, RegExp]>([
    ['127.0.0.1/:80', /"\/"/],
    ['127.0.0.1?:80', /"\?"/],
    ['127.0.0.1#:80', /"#"/],
    ['127.0.0.1\\:80', /"\\\\"/],
    ['127.0.0.1:80#', /port/],
    ['127.0.0.1:80/', /port/],
    ['127.0.0.1:80:81', /port/],
    ['a@127.0.0.1:80', /user information/],
    ['127.0.0.1:80@evil.com:81', /user information/],
    ['0x7f.1:80', /IPv4/],
    ['0x7f000001:80', /IPv4/],
    ['2130706433:80', /IPv4/],
    ['0177.0.0.1:80', /IPv4/],
    ['127.000.0.1:80', /IPv4/],
    ['127.1:80', /IPv4/],
    ['127.0.0.256:80', /IPv4/],
    ['127.0.0.1.:80', /IPv4/],
    ['1.2.3.4.5:80', /IPv4/],
    ['example.0x1:80', /IPv4/],
    ['%31%32%37.0.0.1:80', /"%"/],
    ['exa%6dple.com:80', /"%"/],
    ['127.0.0.1:080', /leading zeros/],
    ['127.0.0.1:+80', /sign/],
    ['127.0.0.1:-1', /sign/],
    ['127.0.0.1:0', /1-65535/],
    ['127.0.0.1:65536', /past 65535/],
    ['127.0.0.1:99999999', /1-65535/],
    ['127.0.0.1: 80', /port/],
    ['127.0.0.1:0x50', /port/],
    ['127.0.0.1:', /port/],
    ['127.0.0.1', /port is missing/],
    [':80', /empty/],
    ['', /empty/],
    ['::1:80', /empty/],
    ['[::1]80', /followed by something other than :port/],
    ['[::1', /not an IPv6/],
    ['[fe80::1%25lo]:80', /not an IPv6/],
    ['[fe80::1%lo]:80', /not an IPv6/],
    ['[v1.x]:80', /not an IPv6/],
    ['[127.0.0.1]:80', /not an IPv6/],
    ['[::ffff:0177.0.0.1]:80', /not an IPv6/],
    ['exa mple.com:80', /U\+0020/],
    ['exam\tple.com:80', /U\+0009/],
    ['a\0b.com:80', /U\+0000/],
    ['café.com:80', /U\+00E9/],
    ['ｅxample.com:80', /U\+FF45/],
    ['a..b:80', /empty label/],
    ['.a.com:80', /empty label/],
    ['a.com..:80', /empty label/],
    ['-a.com:80', /starting or ending/],
    ['a-.com:80', /starting or ending/],
    [`${'a'.repeat(64)}.com:80`, /longer than 63/],
    [`${'a.'.repeat(127)}ab:80`, /longer than 253/],
    ['*.example.com:80', /"\*"/],
  ])('refuses %j with a reason', (text, reason) => {
    const parsed = parseAuthority(text);
    expect(isRefusal(parsed)).toBe(true);
    expect((parsed as { reason: string }).reason).toMatch(reason);
  });

  it('uses a default port only when the text has none, and never repairs one', () => {
    expect(parseAuthority('example.com', 80)).toEqual({ host: 'example.com', port: 80 });
    expect(parseAuthority('[::1]', 443)).toEqual({ host: '[::1]', port: 443 });
    expect(isRefusal(parseAuthority('example.com:', 80))).toBe(true);
  });

  it('a SOCKS host and numeric port go through the same grammar', () => {
    expect(authorityOf('Example.com', 443)).toEqual({ host: 'example.com', port: 443 });
    expect(authorityOf('[0:0::1]', 22)).toEqual({ host: '[::1]', port: 22 });
    expect(isRefusal(authorityOf('127.0.0.1:80#', 81))).toBe(true);
    expect(isRefusal(authorityOf('::1', 80))).toBe(true);
    expect(isRefusal(authorityOf('example.com', 0))).toBe(true);
  });

  it('parseHost and parsePort stand alone', () => {
    expect(parseHost('EXAMPLE.com')).toBe('example.com');
    expect(parsePort('8080')).toBe(8080);
    expect(isRefusal(parsePort('08080'))).toBe(true);
  });
});

describe('absolute-form request targets', () => {
  it.each<[string, string, number, string]>([
    ['http://example.com/a?b=1', 'example.com', 80, '/a?b=1'],
    ['HTTP://Example.com:8080', 'example.com', 8080, '/'],
    ['http://example.com?q', 'example.com', 80, '/?q'],
    ['http://[::1]:81/x', '[::1]', 81, '/x'],
    ['http://127.0.0.1:8080/p:a@t?h=1:2', '127.0.0.1', 8080, '/p:a@t?h=1:2'],
  ])('reads %s', (text, host, port, path) => {
    expect(parseAbsoluteTarget(text)).toEqual({ authority: { host, port }, path });
  });

  it.each<[string, RegExp]>([
    ['/relative', /absolute http/],
    ['https://example.com/', /CONNECT/],
    ['ftp://example.com/', /CONNECT/],
    ['http://example.com#x', /fragment/],
    ['http://127.0.0.1:80#@127.0.0.1:81/', /fragment/],
    ['http://127.0.0.1\\@127.0.0.1:81/', /backslash/],
    ['http://a@127.0.0.1/', /user information/],
    ['http://0x7f.1/', /IPv4/],
    ['http://127.0.0.1:080/', /leading zeros/],
    ['http:///x', /empty/],
  ])('refuses %s', (text, reason) => {
    const parsed = parseAbsoluteTarget(text);
    expect(isRefusal(parsed)).toBe(true);
    expect((parsed as { reason: string }).reason).toMatch(reason);
  });
});

describe('web_fetch URLs: the URL standard and the strict grammar must agree', () => {
  it.each<[string, string, number]>([
    ['https://Example.com/x', 'example.com', 443],
    ['http://example.com:8080/', 'example.com', 8080],
    ['http://example.com:80/', 'example.com', 80],
    ['https://bücher.de/', 'xn--bcher-kva.de', 443],
    ['http://[::1]:8080/', '[::1]', 8080],
    ['http://127.0.0.1/', '127.0.0.1', 80],
  ])('%s is fetched from its one authority', (url, host, port) => {
    expect(parseHttpUrl(url).authority).toEqual({ host, port });
  });

  it.each([
    'http://0x7f.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/', 'http://127.0.0.1./', 'http://%31%32%37.0.0.1/',
    'http://127.0.0.1:080/', 'http://a@127.0.0.1/', 'http://１２７.０.０.１/', 'http://exa!mple.com/', 'http://[::1%25lo]/',
  ])('refuses %s with INVALID_ARGS naming the URL', (url) => {
    expect(() => parseHttpUrl(url)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS', message: expect.stringContaining(JSON.stringify(url)) }));
  });

  it('a redirect is held to the same grammar, relative or absolute', () => {
    const base = new URL('http://example.com/a');
    expect(parseHttpUrl('/b', base).authority).toEqual({ host: 'example.com', port: 80 });
    expect(parseHttpUrl('//other.com:81/', base).authority).toEqual({ host: 'other.com', port: 81 });
    expect(() => parseHttpUrl('http://0x7f.1/', base)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
    expect(() => parseHttpUrl('//0x7f.1/', base)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
    expect(() => parseHttpUrl('http:\\\\0x7f.1\\', base)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
    expect(() => parseHttpUrl('\\\\127.0.0.1:080/', base)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
    expect(() => parseHttpUrl('\u0001 ht\ttp://0x7f.1/', base)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
  });

  it('authorityOfUrl refuses a canonical host outside the grammar', () => {
    expect(isRefusal(authorityOfUrl(new URL('http://a$b.com/')))).toBe(true);
  });
});
