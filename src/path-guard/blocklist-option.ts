import { ToolwardenError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { foldForDeny, type BlockedEntry } from './blocklist.js';

/**
 * The `blockedPaths` option: `add` blocks more names (a path of segments such as `.npmrc` or `config/deploy`,
 * matched at any depth, case-insensitively, with everything under it; `**` stands for zero or more segments); `remove` lifts entries of the list it
 * applies to, by name (`.vscode`, `.git/config`; see {@link blockedEntryName}).
 */
export interface BlockedPathsOption {
  add?: readonly string[];
  remove?: readonly string[];
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['add', 'remove']);
const ADDED_WHY = 'added by the blockedPaths option';

/** The name `remove` takes for an entry: its segments joined with `/`, e.g. `.git/hooks`; `.git (file or symlink)`. */
export function blockedEntryName(entry: BlockedEntry): string {
  return `${entry.segments.join('/')}${entry.only === 'non-directory' ? ' (file or symlink)' : ''}`;
}

/** Parses a `blockedPaths` option into the names it removes and the entries it adds; INVALID_OPTIONS naming `where`. */
export function parseBlockedPathsOption(value: unknown, where: string): { remove: string[]; add: BlockedEntry[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)) {
    throw invalid(`${where} must be { add?: string[], remove?: string[] }`);
  }
  const raw = value as Record<string, unknown>;
  for (const key of Reflect.ownKeys(raw)) {
    if (typeof key !== 'string' || !OPTION_KEYS.has(key)) throw invalid(`${where} has unknown key '${String(key)}'; use add or remove`);
  }
  const remove = stringList(raw['remove'], `${where}.remove`);
  const add = stringList(raw['add'], `${where}.add`).map((text, i): BlockedEntry => ({ segments: parseSegments(text, `${where}.add[${i}]`), depth: 'any', why: ADDED_WHY }));
  return { remove, add };
}

/**
 * Applies a `blockedPaths` option to `base`: drops the entries named in `remove` (each name must be one of
 * `base`'s) and appends `add`'s entries that `base` does not already have.
 * @throws ToolwardenError INVALID_OPTIONS for a bad option or a name that is not on the list
 * @example applyBlockedPathsOption(DEFAULT_BLOCKLIST, { remove: ['.vscode'], add: ['.npmrc'] }, 'blockedPaths')
 */
export function applyBlockedPathsOption(base: readonly BlockedEntry[], value: unknown, where: string): BlockedEntry[] {
  if (value === undefined) return [...base];
  const { remove, add } = parseBlockedPathsOption(value, where);
  const names = new Set(base.map(blockedEntryName));
  for (const name of remove) {
    if (!names.has(name)) throw invalid(`${where}.remove names '${name}', which is not on the blocklist${didYouMean(name, names)}; entries: ${[...names].join(', ')}`);
  }
  const kept = base.filter((entry) => !remove.includes(blockedEntryName(entry)));
  return [...kept, ...add.filter((entry) => !kept.some((k) => k.depth === 'any' && sameSegments(k, entry)))];
}

/** Whether two entries match the same segments (case-folded as the guard compares them) with the same `only`. */
export function sameSegments(a: BlockedEntry, b: BlockedEntry): boolean {
  return a.only === b.only && a.segments.length === b.segments.length && a.segments.every((s, i) => foldForDeny(s) === foldForDeny(b.segments[i]!));
}

function parseSegments(text: string, where: string): string[] {
  const segments = text.replaceAll('\\', '/').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw invalid(`${where} '${text}' must be a relative name of one or more segments (e.g. '.npmrc', 'config/deploy'), without empty, '.' or '..' segments`);
  }
  return segments;
}

function stringList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.length === 0 || item.includes('\0'))) {
    throw invalid(`${where} must be an array of non-empty strings`);
  }
  return [...(value as string[])];
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}
