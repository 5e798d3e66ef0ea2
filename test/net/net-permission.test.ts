import { describe, expect, it } from 'vitest';
import { allowsAllHosts, isExplicitlyListed, isHostAllowed, validateNetPermission, type NetPermission } from '../../src/net/net-permission.js';

describe('validateNetPermission', () => {
  it.each<[unknown, NetPermission]>([
    [false, false],
    [[], []],
    [['Example.COM'], ['example.com']],
    [['example.com.', 'example.com'], ['example.com']],
    [['*.Example.com:443'], ['*.example.com:443']],
    [['127.0.0.1:8080'], ['127.0.0.1:8080']],
    [['[::1]:8080', '::1'], ['[::1]:8080', '[::1]']],
    [['[0:0::1]'], ['[::1]']],
    [['bücher.de'], ['xn--bcher-kva.de']],
    [['*'], ['*']],
    [['*:443'], ['*:443']],
    [['localhost:8080'], ['localhost:8080']],
  ])('accepts %j as %j', (input, expected) => {
    expect(validateNetPermission(input)).toEqual(expected);
  });

  it.each<unknown>([
    true, 'example.com', null, undefined, [1], [''], ['example.com:0'], ['example.com:65536'], ['example.com:http'],
    ['http://example.com'], ['example.com/path'], ['user@example.com'], ['exa mple.com'], ['*.10.0.0.1'],
    ['[not-v6]'], ['a..b'], ['-bad.com'], ['*.'], ['**.example.com'], ['example.com:80:80'],
  ])('refuses %j with INVALID_OPTIONS', (input) => {
    expect(() => validateNetPermission(input)).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describe('isHostAllowed', () => {
  it.each<[NetPermission, string, number, boolean]>([
    [false, 'example.com', 443, false],
    [[], 'example.com', 443, false],
    [['example.com'], 'example.com', 443, true],
    [['example.com'], 'EXAMPLE.com.', 80, true],
    [['example.com'], 'www.example.com', 443, false],
    [['example.com'], 'example.com.evil.net', 443, false],
    [['example.com'], 'evilexample.com', 443, false],
    [['example.com:443'], 'example.com', 443, true],
    [['example.com:443'], 'example.com', 80, false],
    [['*.example.com'], 'api.example.com', 443, true],
    [['*.example.com'], 'a.b.example.com', 443, true],
    [['*.example.com'], 'example.com', 443, false],
    [['*.example.com'], 'notexample.com', 443, false],
    [['*'], 'anything.org', 1234, true],
    [['*:443'], 'anything.org', 80, false],
    [['127.0.0.1'], '127.0.0.1', 8080, true],
    [['127.0.0.1'], '127.0.0.2', 8080, false],
    [['[::1]:8080'], '[::1]', 8080, true],
    [['[::1]:8080'], '::1', 8080, true],
    [['[::1]:8080'], '[::1]', 8081, false],
    [['localhost'], 'localhost', 3000, true],
  ])('%j allows %s:%d -> %s', (perm, host, port, expected) => {
    expect(isHostAllowed(perm, host, port)).toBe(expected);
  });
});

describe('isExplicitlyListed and allowsAllHosts', () => {
  it.each<[NetPermission, string, number, boolean]>([
    [['localhost:8080'], 'localhost', 8080, true],
    [['*.test'], 'app.test', 80, false],
    [['*'], '127.0.0.1', 80, false],
    [['127.0.0.1:8080'], '127.0.0.1', 8080, true],
    [['127.0.0.1:8080'], '127.0.0.1', 9090, false],
  ])('%j names %s:%d exactly -> %s', (perm, host, port, expected) => {
    expect(isExplicitlyListed(perm, host, port)).toBe(expected);
  });

  it.each<[NetPermission, boolean]>([
    [false, false], [['example.com'], false], [['*:443'], false], [['*.com'], false], [['*'], true], [['a.com', '*'], true],
  ])('%j gives commands the host network -> %s', (perm, expected) => {
    expect(allowsAllHosts(perm)).toBe(expected);
  });
});
