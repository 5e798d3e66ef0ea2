import { describe, expect, it } from 'vitest';
import { parseCredentials, substituteHeader, type PlacedCredential } from '../../src/net/egress/credentials.js';
import { createBodySubstitution, substituteQuery } from '../../src/net/egress/credential-places.js';

// GH opts in to bodies and queries for its host; NPM keeps the default (headers only).
const placed: PlacedCredential[] = [
  { name: 'GH', value: 'ghp&real=1', hosts: ['api.github.com'], in: ['header', 'body', 'query'], placeholder: 'tw-GH-1' },
  { name: 'NPM', value: 'npm-real', hosts: ['registry.test'], placeholder: 'tw-NPM-2' },
  { name: 'BODY_ONLY', value: 'body-real', hosts: ['api.github.com'], in: ['body'], placeholder: 'tw-BODY-3' },
];

describe('credentials: where a placeholder is replaced (in)', () => {
  it('parses in, default absent (headers only), deduplicated', () => {
    expect(parseCredentials({ A: { value: 'v', hosts: ['h'], in: ['body', 'header', 'body'] } })).toEqual({ A: { value: 'v', hosts: ['h'], in: ['body', 'header'] } });
    expect(parseCredentials({ A: { value: 'v', hosts: ['h'] } })).toEqual({ A: { value: 'v', hosts: ['h'] } });
  });

  it.each<[string, unknown]>([
    ['an unknown place', ['header', 'cookie-jar']],
    ['an empty list', []],
    ['a string', 'body'],
  ])('refuses in with %s, naming the field', (_name, places) => {
    expect(() => parseCredentials({ A: { value: 'v', hosts: ['h'], in: places } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining("credentials.A.in must be a non-empty list of 'header', 'body', 'query'") }));
  });

  it('headers: a credential without header in its places is left alone', () => {
    expect(substituteHeader('tw-BODY-3 tw-GH-1', 'x-both', placed, 'api.github.com', 443)).toBe('tw-BODY-3 ghp&real=1');
  });
});

describe('substituteQuery: only in the query, only for opted-in credentials of the host', () => {
  it.each<[string, string, string, string]>([
    ['the host, opted in: encoded into the query', '/search?q=tw-GH-1&x=1', 'api.github.com', '/search?q=ghp%26real%3D1&x=1'],
    ['the path is never touched', '/repos/tw-GH-1?q=tw-GH-1', 'api.github.com', '/repos/tw-GH-1?q=ghp%26real%3D1'],
    ['another host keeps the placeholder', '/search?q=tw-GH-1', 'evil.test', '/search?q=tw-GH-1'],
    ['a headers-only credential keeps its placeholder', '/?token=tw-NPM-2', 'registry.test', '/?token=tw-NPM-2'],
    ['a body-only credential keeps its placeholder', '/?token=tw-BODY-3', 'api.github.com', '/?token=tw-BODY-3'],
    ['no query', '/plain', 'api.github.com', '/plain'],
  ])('%s', (_name, path, host, expected) => {
    expect(substituteQuery(path, placed, host, 443)).toBe(expected);
  });
});

describe('createBodySubstitution: a streaming replacement for opted-in credentials of the host', () => {
  const run = (host: string, chunks: string[]): string | undefined => {
    const body = createBodySubstitution(placed, host, 443);
    if (body === undefined) return undefined;
    return [...chunks.map((chunk) => body.push(Buffer.from(chunk))), body.end()].map((b) => b.toString()).join('');
  };

  it.each<[string, string, string[], string | undefined]>([
    ['whole placeholders', 'api.github.com', ['{"t":"tw-GH-1","b":"tw-BODY-3"}'], '{"t":"ghp&real=1","b":"body-real"}'],
    ['a placeholder split across chunks', 'api.github.com', ['{"t":"tw-G', 'H-1"', ',"b":"tw-BODY-', '3"}'], '{"t":"ghp&real=1","b":"body-real"}'],
    ['a placeholder split one byte at a time', 'api.github.com', [...'x=tw-GH-1;'], 'x=ghp&real=1;'],
    ['no placeholder: bytes unchanged', 'api.github.com', ['tw-GH', '-', 'nothing'], 'tw-GH-nothing'],
    ['another host: no substitution at all', 'evil.test', ['tw-GH-1'], undefined],
    ['a headers-only credential host: no substitution at all', 'registry.test', ['tw-NPM-2'], undefined],
  ])('%s', (_name, host, chunks, expected) => {
    expect(run(host, chunks)).toBe(expected);
  });
});
