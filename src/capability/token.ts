import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ToolwardenError } from '../errors.js';
import type { Capability } from './capability.js';

const ISSUER = 'toolwarden';
const AUDIENCE = 'toolwarden-session';
const CLAIM = 'cap';

/**
 * Signs a capability into a compact JWS (HS256) with the runtime's key.
 * @param ttlSeconds lifetime of the token; sessions check it when they open
 */
export async function signCapability(capability: Capability, key: Uint8Array, ttlSeconds: number): Promise<string> {
  return new SignJWT({ [CLAIM]: capability })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setJti(capability.sid)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key);
}

/**
 * Verifies a token and returns its capability. A token altered by one byte, expired, or signed by another key is
 * refused with `TOKEN_INVALID`.
 */
export async function verifyCapability(token: unknown, key: Uint8Array): Promise<Capability> {
  if (typeof token !== 'string' || token.length === 0) {
    throw new ToolwardenError('TOKEN_INVALID', 'token must be a non-empty string');
  }
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    const capability = payload[CLAIM];
    if (typeof capability !== 'object' || capability === null) {
      throw new ToolwardenError('TOKEN_INVALID', 'token carries no capability');
    }
    return capability as Capability;
  } catch (error) {
    if (error instanceof ToolwardenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new ToolwardenError('TOKEN_INVALID', 'token expired: mint a new one');
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolwardenError('TOKEN_INVALID', `token refused (tampered, malformed or from another runtime): ${reason}`);
  }
}
