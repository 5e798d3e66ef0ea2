import { didYouMean } from '../did-you-mean.js';
import { ToolwardenError } from '../errors.js';

/**
 * `value` as a JSON object.
 * @throws ToolwardenError INVALID_OPTIONS naming `where` and what it got instead.
 */
export function requireObject(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${where} must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/**
 * Refuses a field of `raw` that is not in `known`, so a typo does not silently drop a setting; a close known field
 * gets a "did you mean".
 * @throws ToolwardenError INVALID_OPTIONS naming `where`, the field and the known fields.
 */
export function rejectUnknownKeys(raw: Record<string, unknown>, known: readonly string[], where: string): void {
  const extra = Object.keys(raw).find((key) => !known.includes(key));
  if (extra !== undefined) throw invalid(`${where} has unknown field '${extra}'${didYouMean(extra, known)}; known fields: ${known.join(', ')}`);
}

/** A config error: INVALID_OPTIONS with the field and the rule in `message`. */
export function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}
