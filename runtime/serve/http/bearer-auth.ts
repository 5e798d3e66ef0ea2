import { createHash } from 'node:crypto';

/**
 * Who a request acts for, or why it may not. `error` is the RFC 6750 error code for the challenge: none when
 * no bearer credentials were sent at all (section 3.1), `invalid_request` for a malformed one, `invalid_token`
 * for a token no user has.
 */
export type BearerCheck = { ok: true; user: string } | { ok: false; message: string; error?: 'invalid_request' | 'invalid_token' };

/** The realm of the `WWW-Authenticate: Bearer` challenge. */
export const BEARER_REALM = 'toolwarden';

/**
 * A lookup from an `Authorization` header to the user its bearer token maps to. Tokens are kept and compared
 * as SHA-256 digests, so the lookup's timing says nothing about how much of a token was right.
 * @example createBearerAuth({ 's3cret-token-of-alice': 'alice' })('Bearer s3cret-token-of-alice')
 */
export function createBearerAuth(tokens: Readonly<Record<string, string>>): (header: string | undefined) => BearerCheck {
  const users = new Map(Object.entries(tokens).map(([token, user]) => [digest(token), user]));
  return (header) => {
    if (!/^Bearer(\s|$)/i.test(header ?? '')) return { ok: false, message: 'missing bearer token: send "Authorization: Bearer <token>"' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (match?.[1] === undefined) return { ok: false, message: 'malformed bearer token: send "Authorization: Bearer <token>"', error: 'invalid_request' };
    const user = users.get(digest(match[1]));
    return user === undefined ? { ok: false, message: 'unknown bearer token', error: 'invalid_token' } : { ok: true, user };
  };
}

/** The `WWW-Authenticate` value for a refused check (RFC 6750 section 3). */
export function bearerChallenge(check: { message: string; error?: string | undefined }): string {
  if (check.error === undefined) return `Bearer realm="${BEARER_REALM}"`;
  return `Bearer realm="${BEARER_REALM}", error="${check.error}", error_description="${check.message.replace(/["\\]/g, "'")}"`;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
