import { createHmac } from 'node:crypto';
import { jwtVerify, errors as joseErrors } from 'jose';
import { ToolwardenError } from '../errors.js';
import type { Capability } from './capability.js';

const ISSUER = 'toolwarden';
const AUDIENCE = 'toolwarden-session';
const CLAIM = 'cap';

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/** Now, in the seconds since the epoch that a token's `iat` and `exp` count. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Signs a capability into a compact JWS (HS256, RFC 7515) with the runtime's key. Signing is synchronous
 * node:crypto HMAC: jose's WebCrypto signing costs half a millisecond per session open; verification stays jose's.
 * @param ttlSeconds lifetime of the token, counted from `issuedAt`; sessions check it when they open
 * @param issuedAt the token's `iat` in epoch seconds, so a token signed lazily still expires when it was meant to
 */
export function signCapability(capability: Capability, key: Uint8Array, ttlSeconds: number, issuedAt = nowSeconds()): string {
  const claims = { [CLAIM]: capability, iss: ISSUER, aud: AUDIENCE, jti: capability.sid, iat: issuedAt, exp: issuedAt + ttlSeconds };
  const signingInput = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * Verifies a token and returns its capability and when it expires (its `exp`, epoch seconds). A token altered by
 * one byte, expired, or signed by another key is refused with `TOKEN_INVALID`.
 */
export async function verifyCapability(token: unknown, key: Uint8Array): Promise<{ capability: Capability; expiresAt: number }> {
  if (typeof token !== 'string' || token.length === 0) {
    throw new ToolwardenError('TOKEN_INVALID', 'token must be a non-empty string');
  }
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    const capability = payload[CLAIM];
    if (typeof capability !== 'object' || capability === null) {
      throw new ToolwardenError('TOKEN_INVALID', 'token carries no capability');
    }
    if (typeof payload.exp !== 'number') throw new ToolwardenError('TOKEN_INVALID', 'token has no expiry');
    return { capability: capability as Capability, expiresAt: payload.exp };
  } catch (error) {
    if (error instanceof ToolwardenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new ToolwardenError('TOKEN_INVALID', 'token expired: mint a new one');
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolwardenError('TOKEN_INVALID', `token refused (tampered, malformed or from another runtime): ${reason}`);
  }
}
