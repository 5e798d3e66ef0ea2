import type { PlatformPath } from 'node:path';
import { DEFAULT_BLOCKLIST, type BlockedEntry } from './default-blocklist.js';
import { isInside, splitPath } from './segments.js';

export { DEFAULT_BLOCKLIST, type BlockedEntry };

/**
 * What a path is or will be, where the caller knows: `other` (a file or symlink: what a file tool writes, or a walk
 * found), `directory`, or `unknown` (a shell command's target: `mkdir x/.git` and `> x/.git` look alike there), for
 * which a `non-directory` entry does not match and the sandbox's check after the command decides.
 */
export type BlockedPathKind = 'directory' | 'other' | 'unknown';

// Deny rules fold case aggressively on every flavour (macOS APFS and ext4 casefold directories are
// case-insensitive too); upper-then-lower also maps the long s and the Kelvin sign onto `s` and `k`.
// Folding too much here only refuses more, unlike in containment.
/** Case folding used by every deny rule. */
export function foldForDeny(segment: string): string {
  return segment.toUpperCase().toLowerCase();
}

/**
 * The entry of `list` that the absolute path `p` is or lies under, or `undefined`. `workspaceRoot` places
 * `nested` entries: a match whose first segment sits directly in the workspace root is not nested.
 */
export function findBlockedEntry(p: string, workspaceRoot: string, flavour: PlatformPath, list: readonly BlockedEntry[] = DEFAULT_BLOCKLIST, kind: BlockedPathKind = 'unknown'): BlockedEntry | undefined {
  return blockedEntryMatcher(workspaceRoot, flavour, list)(p, kind);
}

/**
 * {@link findBlockedEntry} for many paths against one workspace and list (a walk of the workspace): the list's
 * segments are folded and the root split once, not per path. Made afresh for each walk, so it never outlives a change
 * of the list.
 */
export function blockedEntryMatcher(workspaceRoot: string, flavour: PlatformPath, list: readonly BlockedEntry[] = DEFAULT_BLOCKLIST): (p: string, kind?: BlockedPathKind) => BlockedEntry | undefined {
  const folded = list.map((entry) => {
    const wanted = entry.segments.map(foldForDeny);
    // A `**` entry matches only a path holding each of its other segments: most paths are ruled out by one of them.
    return { entry, wanted, wild: wanted.includes('**'), needs: wanted.find((s) => s !== '**') };
  });
  const workspaceDepth = splitPath(workspaceRoot, flavour).segments.length;
  return (p, kind = 'unknown') => {
    const segments = splitPath(p, flavour).segments.map(foldForDeny);
    const rootDepth = isInside(p, workspaceRoot, flavour) ? workspaceDepth : -1;
    for (const { entry, wanted, wild, needs } of folded) {
      if (wild && needs !== undefined && !segments.includes(needs)) continue;
      const endFrom = wild ? wildcardEnds(segments, wanted) : undefined;
      for (let i = 0; i < segments.length; i += 1) {
        const end = endFrom === undefined ? literalEnd(segments, i, wanted) : endFrom[i];
        if (end === undefined) continue;
        if (entry.depth === 'nested' && i === rootDepth) continue;
        // Only the path itself, and only a file or symlink: what lies under a .git directory is git's.
        if (entry.only === 'non-directory' && (end !== segments.length || kind !== 'other')) continue;
        return entry;
      }
    }
    return undefined;
  };
}

/** Where `wanted` (folded, no `**`) ends when it matches `segments` from `i`; undefined when it does not. */
function literalEnd(segments: readonly string[], i: number, wanted: readonly string[]): number | undefined {
  if (i + wanted.length > segments.length) return undefined;
  for (let j = 0; j < wanted.length; j += 1) if (segments[i + j] !== wanted[j]) return undefined;
  return i + wanted.length;
}

/**
 * For each start `i`, where a match of `wanted` (folded, `**` standing for zero or more segments) against `segments`
 * from `i` ends, or undefined. One table of `segments` x `wanted` filled from the ends, so the cost is
 * linear in each (a backtracking match is exponential in the number of `**` an entry holds).
 */
function wildcardEnds(segments: readonly string[], wanted: readonly string[]): (number | undefined)[] {
  const n = segments.length;
  // next[i]: the end matching wanted[j + 1..] from i (row j + 1); row m matches the empty rest at once.
  let next: (number | undefined)[] = Array.from({ length: n + 1 }, (_, i) => i);
  for (let j = wanted.length - 1; j >= 0; j -= 1) {
    const row: (number | undefined)[] = new Array(n + 1).fill(undefined);
    for (let i = n; i >= 0; i -= 1) {
      // `**` takes nothing here (next[i]) or this segment and what row[i + 1] takes.
      if (wanted[j] === '**') row[i] = next[i] ?? (i < n ? row[i + 1] : undefined);
      else row[i] = i < n && segments[i] === wanted[j] ? next[i + 1] : undefined;
    }
    next = row;
  }
  return next;
}

/** The sentence an error message gives for a blocked entry. */
export function describeBlockedEntry(entry: BlockedEntry): string {
  return `"${entry.segments.join('/')}"${entry.only === 'non-directory' ? ' (as a file or symlink)' : ''} is on the blocklist (${entry.why})`;
}
