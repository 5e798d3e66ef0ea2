import { didYouMean } from '../did-you-mean.js';
import { ToolwardenError } from '../errors.js';

/**
 * `value` as a plain object (prototype `Object.prototype` or null), so an option can never be inherited
 * (`{ __proto__: { tools } }`) nor come from a class instance. Throws `INVALID_OPTIONS` naming `where`.
 */
export function requirePlainObject(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolwardenError('INVALID_OPTIONS', `${where} must be a plain object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new ToolwardenError('INVALID_OPTIONS', `${where} must be a plain object literal`);
  return value as Record<string, unknown>;
}

/** Throws `INVALID_OPTIONS` naming the first own key of `raw` that is not in `known` (`__proto__` and `constructor` included). */
export function rejectUnknownKeys(raw: Record<string, unknown>, known: ReadonlySet<string>, where: string): void {
  for (const key of Reflect.ownKeys(raw)) {
    if (typeof key !== 'string' || !known.has(key)) {
      throw new ToolwardenError('INVALID_OPTIONS', `unknown ${where} option '${String(key)}'${typeof key === 'string' ? didYouMean(key, known) : ''}; known: ${[...known].join(', ')}`);
    }
  }
}
