import { UNLIMITED_AT_ZERO, type Limits } from '../limits.js';

/** Throws ESCALATION naming what a child asked beyond its parent. */
export type Escalate = (what: string) => never;

/**
 * Limits of a child, from its request's parsed limits: each at most the parent's (0, unlimited, of
 * `UNLIMITED_AT_ZERO` only under an unlimited parent).
 */
export function narrowLimits(parent: Readonly<Limits>, requested: Readonly<Partial<Limits>> | undefined, escalate: Escalate): Limits {
  const limits: Limits = { ...parent };
  if (requested === undefined) return limits;
  for (const [key, value] of Object.entries(requested) as [keyof Limits, number][]) {
    const ceiling = parent[key];
    // 0 means unlimited for these: a child of a bounded parent cannot ask for unlimited.
    const parentUnlimited = UNLIMITED_AT_ZERO.has(key) && ceiling === 0;
    const unlimited = UNLIMITED_AT_ZERO.has(key) && value === 0;
    if (!parentUnlimited && (unlimited || value > ceiling)) escalate(`limit ${key}=${value} exceeds the parent's ${ceiling}`);
    limits[key] = value;
  }
  return limits;
}

/** Network hosts of a child: `false`, or a subset of the parent's. */
export function narrowNet(parent: false | readonly string[], requested: false | readonly string[] | undefined, escalate: Escalate): false | string[] {
  if (requested === undefined) return parent === false ? false : [...parent];
  if (requested === false) return false;
  if (parent === false) return escalate('network access is not allowed to the parent');
  for (const host of requested) if (!parent.includes(host)) escalate(`network host '${host}' is not allowed to the parent`);
  return [...new Set(requested)];
}

/** Environment of a child: a subset of the parent's names (and of its values, for an explicit map). */
export function narrowEnv(
  parent: readonly string[] | Readonly<Record<string, string>>,
  requested: readonly string[] | undefined,
  escalate: Escalate,
): readonly string[] | Readonly<Record<string, string>> {
  if (requested === undefined) return Array.isArray(parent) ? [...parent] : { ...parent };
  const allowed = Array.isArray(parent) ? parent : Object.keys(parent);
  for (const name of requested) if (!allowed.includes(name)) escalate(`environment variable '${name}' is not allowed to the parent`);
  if (Array.isArray(parent)) return [...requested];
  const map = parent as Readonly<Record<string, string>>;
  return Object.fromEntries(requested.map((name) => [name, Object.hasOwn(map, name) ? map[name]! : '']));
}

/** A field a child cannot change: the parent's value, or ESCALATION when asked for another. */
export function unchanged<T>(name: string, parent: T | undefined, requested: T | undefined, escalate: Escalate): T | undefined {
  if (requested !== undefined && requested !== parent) escalate(`a child cannot change ${name} (the parent's is ${parent === undefined ? 'unset' : JSON.stringify(parent)})`);
  return parent;
}

/** Whether `asked` is stricter than or equal to `parent` on an ordered scale, else ESCALATION. */
export function atLeast<T extends string>(name: string, scale: Readonly<Record<T, number>>, parent: T, asked: T | undefined, escalate: Escalate): T {
  const value = asked ?? parent;
  if (scale[value] < scale[parent]) escalate(`${name} '${value}' is weaker than '${parent}'`);
  return value;
}
