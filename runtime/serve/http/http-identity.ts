import { createHash } from 'node:crypto';
import type { ServeConfig } from '../../../src/serve/serve-config.js';
import { toPlainError } from '../../../src/errors.js';
import type { Runtime } from '../../runtime.js';
import type { Session } from '../../session/session.js';
import { userSessionOptions } from '../runtime-from-config.js';
import { createBearerAuth, type BearerCheck } from './bearer-auth.js';

/**
 * Who a request acts for: a user, the capability token it presented when it was one, and `credential`, a digest of
 * the bearer value, which binds each MCP session to the credential that opened it (another credential of the same
 * user, a narrower token say, does not reach it).
 */
export type HttpIdentity = { ok: true; user: string; credential: string; capabilityToken?: string } | Extract<BearerCheck, { ok: false }>;

/** A compact JWS: three base64url parts, the last possibly empty. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Resolves the `Authorization` header: a configured bearer token maps to its user; with `tokenPublicKeys` in the
 * config, a capability token the runtime verifies (signature, expiry, tenant) acts for the user it names.
 */
export function createHttpIdentity(config: ServeConfig, rt: Runtime): (header: string | undefined) => Promise<HttpIdentity> {
  const bearer = createBearerAuth(config.tokens);
  return async (header) => {
    const check = bearer(header);
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
    const credential = createHash('sha256').update(token).digest('hex');
    if (check.ok) return { ...check, credential };
    if (check.error !== 'invalid_token' || config.tokenPublicKeys === undefined) return check;
    if (!COMPACT_JWS.test(token)) return check;
    try {
      const info = await rt.verifyToken(token);
      if (info.user === undefined) return { ok: false, message: 'the capability token names no user', error: 'invalid_token' };
      return { ok: true, user: info.user, credential, capabilityToken: token };
    } catch (error) {
      const plain = toPlainError(error);
      return { ok: false, message: `${plain.code}: ${plain.message}`, error: 'invalid_token' };
    }
  };
}

/**
 * Opens the toolwarden session a new MCP session gets: the user's tenant session, or the session of the capability
 * token, narrowed by the tenant's session rules of the config (a token never lifts them). `owner` is the token's
 * session when the served one is its child.
 */
export async function openIdentitySession(rt: Runtime, config: ServeConfig, identity: { user: string; capabilityToken?: string }): Promise<{ session: Session; owner?: Session }> {
  if (identity.capabilityToken === undefined) return { session: await rt.openSession(userSessionOptions(config, identity.user)) };
  const session = await rt.openSession({ token: identity.capabilityToken });
  const rules = config.tenants[identity.user]?.permissions;
  if (rules === undefined) return { session };
  try {
    return { session: await session.attenuate({ permissions: rules }), owner: session };
  } catch (error) {
    await session.close();
    throw error;
  }
}
