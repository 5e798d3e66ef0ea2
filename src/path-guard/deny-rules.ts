import type { PlatformPath } from 'node:path';
import { isInside, isWin32, splitPath } from './segments.js';
import type { PathScope } from './types.js';

/** Directory names never written, at any depth, even when outside writes are allowed. */
export const BLOCKED_SEGMENTS: readonly string[] = ['.ssh', '.aws'];

/** Consecutive segments never written into (nor the directory itself), at any depth. */
export const BLOCKED_SEQUENCES: readonly (readonly string[])[] = [['.git', 'hooks']];

// Kernel "magic" links under these resolve to open files, other processes' roots and cwds: their readlink
// text need not match what an open reaches, so the guard refuses them outright instead of following them.
const POSIX_MAGIC_ROOTS = ['/proc', '/dev/fd', '/dev/stdin', '/dev/stdout', '/dev/stderr'];

// Deny rules fold case aggressively on every flavour (macOS APFS and ext4 casefold directories are
// case-insensitive too); upper-then-lower also maps the long s and the Kelvin sign onto `s` and `k`.
// Folding too much here only refuses more, unlike in containment.
function foldForDeny(segment: string): string {
  return segment.toUpperCase().toLowerCase();
}

/** The blocklist rule a path breaks (a sentence for the error message), or `undefined`. */
export function findBlockedSegment(p: string, flavour: PlatformPath): string | undefined {
  const segments = splitPath(p, flavour).segments.map(foldForDeny);
  const single = segments.find((s) => BLOCKED_SEGMENTS.includes(s));
  if (single !== undefined) return `a "${single}" directory is never written`;
  for (const sequence of BLOCKED_SEQUENCES) {
    const at = segments.findIndex((_, i) => sequence.every((s, j) => segments[i + j] === s));
    if (at >= 0) return `"${sequence.join('/')}" is never written (hooks run code)`;
  }
  return undefined;
}

/** The excluded path (as configured) that `p` is or lies under, or `undefined`. */
export function findExcludedPath(p: string, scope: PathScope, flavour: PlatformPath): string | undefined {
  const key = (x: string) => {
    const split = splitPath(x, flavour);
    return [foldForDeny(split.root.replace(/\//g, flavour.sep)), ...split.segments.map(foldForDeny)];
  };
  const target = key(p);
  return scope.excludedPaths.find((excluded) => {
    const prefix = key(flavour.resolve(scope.workspaceRoot, excluded));
    return prefix.length <= target.length && prefix.every((s, i) => s === target[i]);
  });
}

/** Whether `p` is under a kernel magic-link directory (`/proc`, `/dev/fd`, `/dev/std*`); always false for win32. */
export function isMagicPath(p: string, flavour: PlatformPath): boolean {
  return !isWin32(flavour) && POSIX_MAGIC_ROOTS.some((root) => isInside(p, root, flavour));
}

/** The read root that makes `p` read-only: one containing `p` that does not also contain it via the workspace. */
export function findReadOnlyRoot(p: string, scope: PathScope, flavour: PlatformPath): string | undefined {
  const inWorkspace = isInside(p, scope.workspaceRoot, flavour);
  return scope.readRoots.find((root) => isInside(p, root, flavour) && !(inWorkspace && isInside(scope.workspaceRoot, root, flavour)));
}
