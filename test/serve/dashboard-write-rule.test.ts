import { describe, expect, it } from 'vitest';
import { checkWrite, type WriteRequest } from '../../src/serve/dashboard-write-rule.js';

const SELF = { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000', secFetchSite: 'same-origin', contentType: 'application/json' };
const base = (over: Partial<WriteRequest>): WriteRequest => ({ method: 'POST', proof: 'cookie', ...SELF, ...over });

describe('checkWrite: a cookie-authenticated state change must come from the dashboard page itself', () => {
  it.each<[string, Partial<WriteRequest>, number]>([
    ['no Origin', { origin: undefined }, 403],
    ['Origin null', { origin: 'null' }, 403],
    ['a foreign origin', { origin: 'http://evil.example' }, 403],
    ['the same host on another port (same site for cookies)', { origin: 'http://127.0.0.1:5173' }, 403],
    ['a prefix twin of the origin', { origin: 'http://127.0.0.1:40000' }, 403],
    ['the origin with a path', { origin: 'http://127.0.0.1:4000/ui' }, 403],
    ['Sec-Fetch-Site same-site', { secFetchSite: 'same-site' }, 403],
    ['Sec-Fetch-Site cross-site', { secFetchSite: 'cross-site' }, 403],
    ['a form body', { contentType: 'application/x-www-form-urlencoded' }, 415],
    ['text/plain', { contentType: 'text/plain' }, 415],
    ['no content type', { contentType: undefined }, 415],
    ['a JSON look-alike type', { contentType: 'application/jsonp' }, 415],
    ['GET', { method: 'GET' }, 405],
    ['DELETE', { method: 'DELETE' }, 405],
  ])('%s is refused', (_name, over, status) => {
    expect(checkWrite(base(over))).toMatchObject({ ok: false, status });
  });

  it.each<[string, Partial<WriteRequest>]>([
    ['its own origin', {}],
    ['its own origin, upper case', { origin: 'HTTP://127.0.0.1:4000' }],
    ['no Sec-Fetch-Site (older browsers)', { secFetchSite: undefined }],
    ['JSON with a charset', { contentType: 'application/json; charset=utf-8' }],
    ['https behind a proxy', { origin: 'https://127.0.0.1:4000' }],
  ])('%s is allowed (the near miss)', (_name, over) => {
    expect(checkWrite(base(over))).toEqual({ ok: true });
  });
});

describe('checkWrite: a bearer header is never sent by a browser on its own', () => {
  it('needs no Origin, but still POST and JSON', () => {
    expect(checkWrite(base({ proof: 'bearer', origin: undefined, secFetchSite: undefined }))).toEqual({ ok: true });
    expect(checkWrite(base({ proof: 'bearer', contentType: 'text/plain' }))).toMatchObject({ ok: false, status: 415 });
    expect(checkWrite(base({ proof: 'bearer', method: 'PUT' }))).toMatchObject({ ok: false, status: 405 });
  });
});
