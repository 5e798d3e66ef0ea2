import { createHmac } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, errors as joseErrors, type JWTVerifyOptions, type JWTVerifyResult } from 'jose';
import { ToolwardenError } from '../errors.js';
import type { Capability } from './capability.js';
import { packTokenBlocklist, unpackTokenBlocklist } from './token-blocklist.js';
import { signEd25519, type TokenKeys } from './token-keys.js';

const ISSUER = 'toolwarden';
const AUDIENCE = 'toolwarden-session';
const CLAIM = 'cap';

const HS256_HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
/** Algorithm names an Ed25519 token may carry: RFC 8037's `EdDSA` and RFC 9864's fully specified `Ed25519`. */
const ED25519_ALGORITHMS = ['EdDSA', 'Ed25519'];

/** What signs a token: the runtime's HS256 key, or an Ed25519 private key with its `kid`. */
export type TokenSigner = Uint8Array | NonNullable<TokenKeys['signer']>;

/** Now, in the seconds since the epoch that a token's `iat` and `exp` count. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Signs a capability into a compact JWS (RFC 7515): HS256 with the runtime's key, or EdDSA with an Ed25519 key.
 * Signing is synchronous node:crypto: jose's WebCrypto signing costs half a millisecond per session open;
 * verification stays jose's.
 * @param ttlSeconds lifetime of the token, counted from `issuedAt`; sessions check it when they open
 * @param issuedAt the token's `iat` in epoch seconds, so a token signed lazily still expires when it was meant to
 */
export function signCapability(capability: Capability, signer: TokenSigner, ttlSeconds: number, issuedAt = nowSeconds()): string {
  const claims = { [CLAIM]: packTokenBlocklist(capability), iss: ISSUER, aud: AUDIENCE, jti: capability.sid, iat: issuedAt, exp: issuedAt + ttlSeconds };
  const payload = base64url(JSON.stringify(claims));
  if (signer instanceof Uint8Array) {
    const signingInput = `${HS256_HEADER}.${payload}`;
    return `${signingInput}.${createHmac('sha256', signer).update(signingInput).digest('base64url')}`;
  }
  const signingInput = `${base64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid: signer.keyId }))}.${payload}`;
  return `${signingInput}.${signEd25519(signingInput, signer.key)}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * Verifies a token and returns its capability and when it expires (its `exp`, epoch seconds). HS256 tokens are
 * checked with `key`, EdDSA tokens with the public keys of `keys` (by `kid`, or each key when it has none); any other
 * algorithm, a token altered by one byte, expired, or signed by another key is refused with `TOKEN_INVALID`.
 * `signedBy` says which: an Ed25519 token comes from another party, and the node bounds it by its own settings.
 */
export async function verifyCapability(token: unknown, key: Uint8Array, keys?: TokenKeys): Promise<{ capability: Capability; expiresAt: number; signedBy: 'hs256' | 'ed25519' }> {
  if (typeof token !== 'string' || token.length === 0) {
    throw new ToolwardenError('TOKEN_INVALID', 'token must be a non-empty string');
  }
  try {
    const { payload, protectedHeader } = await verifyJws(token, key, keys);
    const capability = payload[CLAIM];
    if (typeof capability !== 'object' || capability === null) {
      throw new ToolwardenError('TOKEN_INVALID', 'token carries no capability');
    }
    if (typeof payload.exp !== 'number') throw new ToolwardenError('TOKEN_INVALID', 'token has no expiry');
    return { capability: unpackTokenBlocklist(capability as Capability), expiresAt: payload.exp, signedBy: protectedHeader.alg === 'HS256' ? 'hs256' : 'ed25519' };
  } catch (error) {
    if (error instanceof ToolwardenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new ToolwardenError('TOKEN_INVALID', 'token expired: mint a new one');
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolwardenError('TOKEN_INVALID', `token refused (tampered, malformed or from another runtime): ${reason}`);
  }
}

function verifyJws(token: string, key: Uint8Array, keys: TokenKeys | undefined): Promise<JWTVerifyResult> {
  const { alg } = decodeProtectedHeader(token);
  const claims = { issuer: ISSUER, audience: AUDIENCE };
  if (alg === 'HS256') return jwtVerify(token, key, { ...claims, algorithms: ['HS256'] });
  if (typeof alg === 'string' && ED25519_ALGORITHMS.includes(alg)) {
    if (keys === undefined) throw new ToolwardenError('TOKEN_INVALID', 'token is signed with Ed25519 but this runtime has no tokenKeys to verify it');
    return verifyWithKeySet(token, keys, { ...claims, algorithms: ED25519_ALGORITHMS });
  }
  throw new ToolwardenError('TOKEN_INVALID', `token algorithm '${String(alg)}' is not accepted (HS256 or EdDSA only)`);
}

/** A token without a `kid` matches every key of the set: each is tried in turn until one verifies. */
async function verifyWithKeySet(token: string, keys: TokenKeys, options: JWTVerifyOptions): Promise<JWTVerifyResult> {
  try {
    return await jwtVerify(token, keys.keySet, options);
  } catch (error) {
    if (!(error instanceof joseErrors.JWKSMultipleMatchingKeys)) throw error;
    for await (const candidate of error) {
      try {
        return await jwtVerify(token, candidate, options);
      } catch (attempt) {
        if (!(attempt instanceof joseErrors.JWSSignatureVerificationFailed)) throw attempt;
      }
    }
    throw new joseErrors.JWSSignatureVerificationFailed();
  }
}
