import type { PlatformPath } from 'node:path';
import { isInside, isWin32, splitPath } from './segments.js';
import { describeBlockedEntry, findBlockedEntry, foldForDeny, type BlockedPathKind } from './blocklist.js';
import type { PathScope } from './types.js';

// Kernel "magic" links under these resolve to open files, other processes' roots and cwds: their readlink
// text need not match what an open reaches, so the guard refuses them outright instead of following them.
const POSIX_MAGIC_ROOTS = ['/proc', '/dev/fd', '/dev/stdin', '/dev/stdout', '/dev/stderr'];

/** The blocklist rule a path breaks (a sentence for the error message), or `undefined`. */
export function findBlockedSegment(p: string, scope: PathScope, flavour: PlatformPath, kind: BlockedPathKind = 'unknown'): string | undefined {
  const entry = findBlockedEntry(p, scope.workspaceRoot, flavour, scope.blocklist, kind);
  return entry === undefined ? undefined : describeBlockedEntry(entry);
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
