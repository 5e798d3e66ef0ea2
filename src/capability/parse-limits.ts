import { didYouMean } from '../did-you-mean.js';
import { ToolwardenError } from '../errors.js';
import { DEFAULT_LIMITS, UNLIMITED_AT_ZERO, type Limits } from '../limits.js';
import { requirePlainObject } from './plain-object.js';

/** The smallest value each limit takes: 0 (unlimited) for `UNLIMITED_AT_ZERO`, at least 1 for every other limit. */
function minimumOf(key: keyof Limits): number {
  return UNLIMITED_AT_ZERO.has(key) ? 0 : 1;
}

/**
 * Checks a `limits` option: a plain object whose own keys are limit names and whose values are finite integers at
 * or above the limit's minimum. NaN, Infinity, strings, fractions and negatives are refused naming the field.
 * @param where - the option's name in messages, e.g. `limits` or `attenuate limits`.
 * @throws ToolwardenError `INVALID_OPTIONS`
 */
export function parseLimits(value: unknown, where: string): Partial<Limits> {
  const raw = requirePlainObject(value, where);
  const parsed: Partial<Limits> = {};
  for (const [key, limit] of Object.entries(raw)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, key)) {
      throw new ToolwardenError('INVALID_OPTIONS', `unknown limit '${key}' in ${where}${didYouMean(key, Object.keys(DEFAULT_LIMITS))}; known: ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    }
    if (limit === undefined) continue;
    const name = key as keyof Limits;
    const min = minimumOf(name);
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < min) {
      const shown = typeof limit === 'string' ? JSON.stringify(limit) : String(limit);
      throw new ToolwardenError('INVALID_OPTIONS', `${where}.${key} must be an integer >= ${min}, got ${shown}`);
    }
    parsed[name] = limit;
  }
  return parsed;
}
