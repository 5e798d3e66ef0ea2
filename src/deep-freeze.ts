/**
 * Freezes a plain-data value and everything reachable from it, in place, and returns it. For data the runtime
 * shares between callers or trusts for a session's life (a capability, a cached admission outcome): nothing that
 * holds it can change what the next reader sees.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
