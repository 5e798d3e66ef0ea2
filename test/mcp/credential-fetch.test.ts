import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { createCredentialFetch } from '../../runtime/mcp/credential-fetch.js';
import { placeServerCredentials, userSecretCredentials } from '../../src/mcp/server-credentials.js';
import type { Credentials } from '../../src/net/egress/credentials.js';
import { errorOf } from './helpers.js';

// What a per-user HTTP server's transport sends, decided per request by the one credential rule: a credential's value
// goes only to its hosts (canonical: any case, one trailing dot), a header that would carry a reference elsewhere is
// not sent at all, and a request carrying a value is never redirected by fetch itself.
const SECRET = 'mcp-cred-S3cr3t/v+1';
const SESSION: Credentials = { TOKEN: { value: SECRET, hosts: ['api.test', '*.corp.test', '127.0.0.1:8443'] } };
const HEADERS = { authorization: 'Bearer ${credential.TOKEN}', 'x-trace': 'plain' };

interface Sent {
  url: string;
  headers: Record<string, string>;
  redirect: RequestInit['redirect'];
}

function recorder(): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    sent.push({ url: String(url), headers, redirect: init?.redirect });
    return new Response('{}');
  };
  return { fetch, sent };
}

async function send(credentials: ReturnType<typeof placeServerCredentials>, url: string, headers: Record<string, string>, redirect?: RequestInit['redirect']): Promise<Sent> {
  const { fetch, sent } = recorder();
  await createCredentialFetch(credentials, fetch)(url, { method: 'POST', headers, ...(redirect === undefined ? {} : { redirect }) });
  expect(sent).toHaveLength(1);
  return sent[0] as Sent;
}

const placed = placeServerCredentials('gh', { url: 'https://api.test/mcp', headers: HEADERS, perUser: true }, SESSION, {});

describe('createCredentialFetch: a session credential goes to its hosts only', () => {
  it.each([
    ['the server host', 'https://api.test/mcp', true],
    ['the host in another case with a trailing dot (the same DNS name)', 'https://API.Test./mcp', true],
    ['another port of a host listed without one', 'https://api.test:8443/mcp', true],
    ['a subdomain of a wildcard host', 'https://x.corp.test/mcp', true],
    ['the listed address and port', 'http://127.0.0.1:8443/mcp', true],
    ['the apex of a wildcard host', 'https://corp.test/mcp', false],
    ['a name that extends the host', 'https://api.test.evil.test/mcp', false],
    ['a prefix twin', 'https://evil-api.test/mcp', false],
    ['the host as user information before another host', 'https://api.test@evil.test/mcp', false],
    ['a wildcard host followed by another label', 'https://x.corp.test.evil/mcp', false],
    ['the listed address on another port', 'http://127.0.0.1:8444/mcp', false],
    ['a name for the listed address', 'http://localhost:8443/mcp', false],
  ])('%s: sent %s', async (_name, url, expected) => {
    const sent = await send(placed, url, HEADERS);
    expect(sent.headers['x-trace']).toBe('plain');
    if (expected) {
      expect(sent.headers['authorization']).toBe(`Bearer ${SECRET}`);
      expect(sent.redirect).toBe('manual');
    } else {
      // Not even the reference goes there: the header is dropped.
      expect(sent.headers['authorization']).toBeUndefined();
      expect(JSON.stringify(sent)).not.toContain(SECRET);
    }
  });

  it('a header naming a credential for this host and one for another is not sent at all', async () => {
    const both = placeServerCredentials('gh', { url: 'https://api.test/mcp', headers: { a: '${credential.TOKEN} ${credential.OTHER}' }, perUser: true }, { ...SESSION, OTHER: { value: 'other-value-1', hosts: ['api.test', 'other.test'] } }, {});
    const sent = await send(both, 'https://other.test/mcp', { a: '${credential.TOKEN} ${credential.OTHER}' });
    expect(sent.headers['a']).toBeUndefined();
  });

  it('a Basic authorization naming the credential is decoded, filled and encoded again', async () => {
    const basic = `Basic ${Buffer.from('user:${credential.TOKEN}').toString('base64')}`;
    const sent = await send(placed, 'https://api.test/mcp', { authorization: basic });
    expect(sent.headers['authorization']).toBe(`Basic ${Buffer.from(`user:${SECRET}`).toString('base64')}`);
  });

  it.each([['follow' as const], [undefined]])('a request carrying a value is not redirected by fetch, even asked to (%s)', async (redirect) => {
    expect((await send(placed, 'https://api.test/mcp', HEADERS, redirect)).redirect).toBe('manual');
  });

  it('a request carrying no value keeps its redirect mode', async () => {
    expect((await send(placed, 'https://evil.test/mcp', HEADERS, 'follow')).redirect).toBe('follow');
  });
});

describe('${user.<secret>} (deprecated): a credential whose host is the server url\'s host and port', () => {
  const legacy = userSecretCredentials(new URL('http://127.0.0.1:5000/mcp'), { token: SECRET });
  it.each([
    ['the server origin', 'http://127.0.0.1:5000/mcp', true],
    ['another path of it', 'http://127.0.0.1:5000/other', true],
    ['another port', 'http://127.0.0.1:5001/mcp', false],
    ['another name for the same address', 'http://localhost:5000/mcp', false],
  ])('%s: sent %s', async (_name, url, expected) => {
    const sent = await send(legacy, url, { 'x-api-key': '${user.token}' });
    expect(sent.headers['x-api-key']).toBe(expected ? SECRET : undefined);
  });

  it('https without a port means 443', () => {
    expect(userSecretCredentials(new URL('https://API.test./mcp'), { t: 'v' })[0]?.hosts).toEqual(['api.test:443']);
  });
});

describe('placeServerCredentials: the server must be one of the credential\'s hosts', () => {
  it.each<[string, string, Record<string, string>, Credentials, RegExp]>([
    ['a credential the session does not have', 'https://api.test/mcp', { a: '${credential.NOPE}' }, SESSION, /mcpServers\.gh\.headers\.a names credential 'NOPE', which this session does not have/],
    ['a server url outside the credential\'s hosts', 'https://evil.test/mcp', HEADERS, SESSION, /mcpServers\.gh\.url .*evil\.test:443.* not one of credential 'TOKEN''s hosts \(api\.test, \*\.corp\.test, 127\.0\.0\.1:8443\)/],
    ['a server on a port the credential does not list', 'http://127.0.0.1:9/mcp', HEADERS, SESSION, /credential 'TOKEN''s hosts/],
    ['a credential kept out of headers', 'https://api.test/mcp', { a: '${credential.Q}' }, { Q: { value: 'query-only-1', hosts: ['api.test'], in: ['query'] } }, /credential 'Q' may not be sent in headers \(in: query\)/],
  ])('%s is INVALID_OPTIONS, naming it and never the value', (_name, url, headers, session, message) => {
    const error = errorOf(() => placeServerCredentials('gh', { url, headers, perUser: true }, session, {}));
    expect(error?.code).toBe('INVALID_OPTIONS');
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain(SECRET);
  });

  it('places only the credentials the headers name, each under its reference', () => {
    const named = placeServerCredentials('gh', { url: 'https://api.test/mcp', headers: HEADERS, perUser: true }, { ...SESSION, UNUSED: { value: 'unused-value', hosts: ['api.test'] } }, { token: 'legacy-v' });
    expect(named.map((c) => [c.placeholder, c.value])).toEqual([['${credential.TOKEN}', SECRET], ['${user.token}', 'legacy-v']]);
  });
});
