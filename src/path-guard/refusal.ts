import { ToolwardenError, type ErrorCode } from '../errors.js';
import { MAX_SYMLINK_HOPS } from './canonicalize.js';

/**
 * The rules a path can break, each a predicate of "a path" that names only the session's own roots: never where a
 * link leads, whether something outside exists, or any path but the one the caller wrote.
 */
export const PATH_RULES = {
  outsideReadable: (roots: readonly string[]): string => `is outside the workspace and every read root (${roots.join(', ')})`,
  outsideWorkspace: (root: string): string => `is outside the workspace ${root}`,
  magic: 'is a kernel magic path (/proc, /dev/fd), which is never readable',
  notWritable: (rule: string): string => `is not writable: ${rule}`,
  loop: `leads through a symlink loop or more than ${MAX_SYMLINK_HOPS} symlinks`,
  changed: (access: 'read' | 'write'): string => `changed after the check: it now leads where this session may not ${access} it`,
  swapped: (now: string): string => `is now ${now}: a component was swapped for a symlink after the check`,
  changing: 'changed while it was being opened, so it is not used',
  notWritableHere: 'is not writable by this session',
} as const;

// What a refusal that did not come from the guard says, by code: its own message may name anything.
const RULES_BY_CODE: Partial<Record<ErrorCode, string>> = {
  NOT_READABLE: 'is outside what this session may read',
  OUTSIDE_WORKSPACE: 'is outside the workspace',
  BLOCKED_PATH: 'is on the blocklist or under an excluded path',
  SYMLINK_LOOP: PATH_RULES.loop,
  INVALID_ARGS: 'is not a path the guard accepts',
};

/**
 * The text of every path refusal: the path as the caller wrote it and the rule it breaks; `throughLink` when a
 * symlink on the way led to the path that breaks it (nothing is said of where).
 * @example refusalText('out/a.txt', PATH_RULES.outsideWorkspace('/ws'), true)
 * // 'path out/a.txt leads through a symlink to a path that is outside the workspace /ws'
 */
export function refusalText(written: string, rule: string, throughLink = false): string {
  return throughLink ? `path ${written} leads through a symlink to a path that ${rule}` : `path ${written} ${rule}`;
}

/** A refused path as data (code, the path as written, the rule), its message made by {@link refusalText}. */
export class PathRefusal extends ToolwardenError {
  constructor(
    code: ErrorCode,
    readonly written: string,
    readonly rule: string,
    readonly throughLink = false,
  ) {
    super(code, refusalText(written, rule, throughLink));
  }
}

/**
 * The same refusal about the path as another caller wrote it (the shell check names the word of the command, not
 * the path the checker resolved it to). A refusal that did not come from the guard keeps its code and says the rule
 * of that code only, since its message may name anything.
 */
export function restateRefusal(error: unknown, written: string, throughLink: boolean): PathRefusal {
  if (error instanceof PathRefusal) return new PathRefusal(error.code, written, error.rule, throughLink || error.throughLink);
  const code: ErrorCode = error instanceof ToolwardenError ? error.code : 'INTERNAL';
  return new PathRefusal(code, written, RULES_BY_CODE[code] ?? 'is refused', throughLink);
}
