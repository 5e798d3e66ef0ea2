import { ToolwardenError } from '../errors.js';
import { requirePlainObject } from './plain-object.js';

/** `value` as an array of non-empty strings without NUL bytes, else INVALID_OPTIONS naming `name`. */
export function stringArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.length === 0 || item.includes('\0'))) {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} must be an array of non-empty strings`);
  }
  return [...(value as string[])];
}

/** `value` as a non-empty string without NUL bytes, else INVALID_OPTIONS naming `name`. */
export function requireNonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.includes('\0')) {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} must be a non-empty string`);
  }
  return value;
}

/** `value` as a boolean, else INVALID_OPTIONS naming `name`. */
export function requireBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new ToolwardenError('INVALID_OPTIONS', `${name} must be a boolean`);
  return value;
}

/** `value` as one of `choices`, else INVALID_OPTIONS naming `name` and the choices. */
export function oneOf<T extends string>(value: unknown, choices: readonly T[], name: string): T {
  if (!(choices as readonly unknown[]).includes(value)) {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} must be ${choices.map((c) => `'${c}'`).join(' or ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** An `env` option: names or `PREFIX_*` patterns, or an explicit map of names to string values. */
export function parseEnv(value: unknown): readonly string[] | Readonly<Record<string, string>> {
  if (Array.isArray(value)) return stringArray(value, 'env');
  const map = requirePlainObject(value, 'env');
  for (const [name, text] of Object.entries(map)) {
    if (typeof text !== 'string') throw new ToolwardenError('INVALID_OPTIONS', `env.${name} must be a string, got ${typeof text}`);
  }
  return { ...(map as Record<string, string>) };
}
