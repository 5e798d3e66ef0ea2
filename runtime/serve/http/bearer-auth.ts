import { createHash } from 'node:crypto';

/** Who a request acts for, or why it may not. */
export type BearerCheck = { ok: true; user: string } | { ok: false; message: string };

/**
 * A lookup from an `Authorization` header to the user its bearer token maps to. Tokens are kept and compared
 * as SHA-256 digests, so the lookup's timing says nothing about how much of a token was right.
 * @example createBearerAuth({ 's3cret-token-of-alice': 'alice' })('Bearer s3cret-token-of-alice')
 */
export function createBearerAuth(tokens: Readonly<Record<string, string>>): (header: string | undefined) => BearerCheck {
  const users = new Map(Object.entries(tokens).map(([token, user]) => [digest(token), user]));
  return (header) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (match?.[1] === undefined) return { ok: false, message: 'missing bearer token: send "Authorization: Bearer <token>"' };
    const user = users.get(digest(match[1]));
    return user === undefined ? { ok: false, message: 'unknown bearer token' } : { ok: true, user };
  };
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
