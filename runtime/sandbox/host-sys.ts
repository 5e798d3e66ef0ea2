import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { SandboxCommandScope, SandboxScope, SandboxSys } from '../../src/sandbox/types.js';

/** The real filesystem's answers for the layout. */
export const hostSandboxSys: SandboxSys = {
  existing: (path) => existsSync(path),
  readLink: (path) => {
    try {
      return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
    } catch {
      return undefined;
    }
  },
};

/**
 * The scope with every path made canonical, since bwrap mounts by real path. Blocked paths whose real location
 * is outside the workspace are dropped: outside the workspace they are read-only or absent anyway.
 */
export function canonicalizeScope(scope: SandboxScope): SandboxScope {
  const rooted = canonicalizeRoots(scope);
  const inside = (path: string): boolean => path.startsWith(`${rooted.workspaceRoot}/`);
  return {
    ...rooted,
    blockedInWorkspace: scope.blockedInWorkspace.map(canonicalize).filter(inside),
    ...(scope.stubsInWorkspace === undefined ? {} : { stubsInWorkspace: scope.stubsInWorkspace.map(canonicalize).filter(inside) }),
  };
}

/**
 * The scope with its roots and HOME made canonical, and its mounts left as they are: all a command spawned in a
 * standing sandbox (whose mounts were made at its start) is checked against, at a realpath per root, not per mount.
 */
export function canonicalizeRoots<T extends SandboxCommandScope>(scope: T): T {
  return {
    ...scope,
    workspaceRoot: canonicalize(scope.workspaceRoot),
    readRoots: scope.readRoots.map(canonicalize),
    ...(scope.home === undefined ? {} : { home: resolve(scope.home) }),
  };
}

/** realpath when the path exists; otherwise its nearest existing parent's realpath plus the rest. */
export function canonicalize(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(canonicalize(parent), basename(absolute));
  }
}
