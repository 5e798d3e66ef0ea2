import { describe, expect, it } from 'vitest';
import { netOutside } from '../../src/net/net-within.js';
import type { NetPermission } from '../../src/net/net-permission.js';

// [bound, asked, the entry outside (undefined: within)]
const CASES: [string, NetPermission, NetPermission, string | undefined][] = [
  ['anything under no network', false, ['api.test'], 'api.test'],
  ['every host under one host', ['api.test'], ['*'], '*'],
  ['an exact IP under every host (private reach a wildcard never grants)', ['*'], ['10.0.0.5'], '10.0.0.5'],
  ['an exact name under its wildcard (it could reach private addresses)', ['*.example.com'], ['api.example.com'], 'api.example.com'],
  ['the domain itself under its subdomains', ['*.example.com'], ['*.com'], '*.com'],
  ['a sibling domain twin', ['*.example.com'], ['*.evilexample.com'], '*.evilexample.com'],
  ['another port of a host', ['api.test:443'], ['api.test:8443'], 'api.test:8443'],
  ['every port of a host bound to one', ['api.test:443'], ['api.test'], 'api.test'],
  ['every host on every port under every host on 443', ['*:443'], ['*'], '*'],
  ['a wildcard under an exact host', ['example.com'], ['*.example.com'], '*.example.com'],
  ['one bad among good', ['api.test', 'example.com'], ['api.test', 'other.test'], 'other.test'],
  // near misses: equal or narrower
  ['no network under no network', false, false, undefined],
  ['no network under hosts', ['api.test'], false, undefined],
  ['an empty list', false, [], undefined],
  ['the same host', ['api.test'], ['api.test'], undefined],
  ['one port of a port-less host', ['api.test'], ['api.test:443'], undefined],
  ['a deeper wildcard', ['*.example.com'], ['*.a.example.com'], undefined],
  ['the same wildcard', ['*.example.com'], ['*.example.com:443'], undefined],
  ['a wildcard under every host', ['*'], ['*.example.com'], undefined],
  ['every host under every host', ['*'], ['*'], undefined],
  ['case and a trailing dot are canonical', ['api.test'], ['API.Test.'], undefined],
];

describe('netOutside: a net list is within a bound only when every entry is', () => {
  it.each(CASES)('%s', (_name, bound, asked, outside) => {
    expect(netOutside(bound, asked)).toBe(outside);
  });
});
