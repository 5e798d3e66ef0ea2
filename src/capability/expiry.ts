import { ToolwardenError } from '../errors.js';

/** Lifetime of a token when none is asked for: an hour. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

/**
 * When a child's token expires (epoch seconds): never after its parent's. Without `ttlSeconds` it gets the
 * parent's remaining lifetime, at most the default hour; asking to outlive the parent is ESCALATION.
 * @example childExpiry(now + 5, undefined, now) // now + 5
 */
export function childExpiry(parentExpiresAt: number, ttlSeconds: number | undefined, now: number): number {
  if (ttlSeconds === undefined) return Math.min(parentExpiresAt, now + DEFAULT_TOKEN_TTL_SECONDS);
  if (now + ttlSeconds > parentExpiresAt) {
    throw new ToolwardenError('ESCALATION', `cannot widen the parent capability: ttlSeconds ${ttlSeconds} outlives the parent's token, which expires in ${Math.max(0, parentExpiresAt - now)} s`);
  }
  return now + ttlSeconds;
}
