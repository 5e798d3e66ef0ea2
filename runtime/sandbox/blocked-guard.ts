import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { BlockedEntry } from '../../src/path-guard/blocklist.js';
import { diffBlockedSnapshots, inodeOf, MISSING_INODE, topLevelStubs, type BlockedChange } from '../../src/sandbox/blocked-changes.js';
import { DEFAULT_SCAN_MAX_DIRS, removeCreated, scanBlocked, type BlockedScan } from './blocked-scan.js';

/** A blocked path a command created or changed, and whether toolwarden removed it. */
export interface BlockedFinding extends BlockedChange {
  /** True when it was created (or replaced) and is now gone; a path changed in place cannot be restored. */
  readonly removed: boolean;
}

/** What the check after a command found. */
export interface BlockedReport {
  readonly findings: readonly BlockedFinding[];
  /** The walk before or after stopped at its bound: blocked paths deeper than it were not checked. */
  readonly truncated: boolean;
}

/** One command's blocklist guard: what to mount before it, and the check after it. */
export interface BlockedGuard {
  /** Existing blocked paths, to bind read-only over the workspace. */
  readonly existing: readonly string[];
  /** Missing top-level blocked paths, to cover with an empty read-only mount. */
  readonly stubs: readonly string[];
  /** Each of `existing` and `stubs` → its inode when the walk saw it (`missing` for a stub): what a mount is of. */
  readonly mounts: ReadonlyMap<string, string>;
  /**
   * Walks again and removes what the command created at blocked paths (a stub it filled included). The empty stubs
   * stay: the caller removes them (removeStubLater) once no other running sandbox of the workspace mounts them.
   */
  finish(): BlockedReport;
}

/**
 * Walks the (canonical) workspace before a command: blocked paths that exist are bound read-only, missing
 * top-level ones are covered; `finish()` after the command finds what was created or changed at any depth.
 */
export function startBlockedGuard(workspaceRoot: string, list: readonly BlockedEntry[], excluded: readonly string[], maxDirs = DEFAULT_SCAN_MAX_DIRS): BlockedGuard {
  const before = scanBlocked(workspaceRoot, list, excluded, maxDirs);
  const stubs = topLevelStubs(workspaceRoot, (p) => kindAfter(before, p) !== 'missing', (p) => kindAfter(before, p) === 'directory', list);
  const mounts = new Map<string, string>();
  for (const [path, signature] of before.paths) mounts.set(path, inodeOf(signature));
  // A stub the walk saw (a dangling symlink: existsSync says missing) keeps the inode lstat gives it.
  for (const stub of stubs) if (!mounts.has(stub)) mounts.set(stub, MISSING_INODE);
  return {
    existing: [...before.paths.keys()],
    stubs,
    mounts,
    finish: () => {
      const after = scanBlocked(workspaceRoot, list, excluded, maxDirs);
      const changes = diffBlockedSnapshots(before, after, new Set(stubs));
      const findings = changes.map((c) => ({ ...c, removed: c.change === 'created' && removeCreated(c.path) }));
      return { findings, truncated: before.truncated || after.truncated };
    },
  };
}

/** The sentence a result and the audit give for the findings. */
export function describeFindings(findings: readonly BlockedFinding[]): string {
  return findings.map((f) => `${f.path} (${f.change}${f.removed ? ', removed' : f.change === 'created' ? ', could not be removed' : ''})`).join('; ');
}

/**
 * What `path` is, following a symlink (as existsSync and statSync do), answered from the walk's listing of its parent
 * when it read that parent; a symlink, or a parent it did not read, is asked of the disk.
 */
function kindAfter(scan: BlockedScan, path: string): 'missing' | 'directory' | 'other' {
  const listing = scan.topListings.get(dirname(path));
  const entry = listing?.get(basename(path));
  if (listing !== undefined && entry === undefined) return 'missing';
  if (entry !== undefined && !entry.isSymbolicLink()) return entry.isDirectory() ? 'directory' : 'other';
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing'; // ENOENT, or ENOTDIR under a .git file: nothing there, as existsSync says
  }
}
