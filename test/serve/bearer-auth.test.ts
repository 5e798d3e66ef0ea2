import { describe, expect, it } from 'vitest';
import { bearerChallenge, createBearerAuth } from '../../runtime/serve/http/bearer-auth.js';

const auth = createBearerAuth({ 'alice-token-0123456789': 'alice', 'bob-token-0123456789ab': 'bob' });

describe('createBearerAuth', () => {
  it.each([
    ['Bearer alice-token-0123456789', { ok: true, user: 'alice' }],
    ['bearer bob-token-0123456789ab', { ok: true, user: 'bob' }],
    ['Bearer   alice-token-0123456789  ', { ok: true, user: 'alice' }],
    ['Bearer alice-token-012345678', { ok: false, message: 'unknown bearer token', error: 'invalid_token' }],
    ['Bearer alice-token-0123456789x', { ok: false, message: 'unknown bearer token', error: 'invalid_token' }],
    ['Bearer ', { ok: false, message: expect.stringContaining('malformed bearer token'), error: 'invalid_request' }],
    ['Bearer', { ok: false, message: expect.stringContaining('malformed bearer token'), error: 'invalid_request' }],
    ['Basic alice-token-0123456789', { ok: false, message: expect.stringContaining('missing bearer token') }],
    ['alice-token-0123456789', { ok: false, message: expect.stringContaining('missing bearer token') }],
    ['Bearer alice-token-0123456789 extra', { ok: false, message: expect.stringContaining('malformed bearer token'), error: 'invalid_request' }],
    ['Bearerx alice-token-0123456789', { ok: false, message: expect.stringContaining('missing bearer token') }],
    [undefined, { ok: false, message: expect.stringContaining('missing bearer token') }],
  ])('%j', (header, expected) => {
    expect(auth(header)).toEqual(expected);
  });
});

describe('bearerChallenge', () => {
  it.each([
    [{ message: 'missing bearer token' }, 'Bearer realm="toolwarden"'],
    [{ message: 'unknown bearer token', error: 'invalid_token' }, 'Bearer realm="toolwarden", error="invalid_token", error_description="unknown bearer token"'],
    [{ message: 'malformed bearer token: send "x"', error: 'invalid_request' }, `Bearer realm="toolwarden", error="invalid_request", error_description="malformed bearer token: send 'x'"`],
  ])('%j', (check, expected) => {
    expect(bearerChallenge(check)).toBe(expected);
  });
});
