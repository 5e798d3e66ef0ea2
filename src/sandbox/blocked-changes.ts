import { posix } from 'node:path';
import { DEFAULT_BLOCKLIST, type BlockedEntry } from '../path-guard/blocklist.js';

/** The blocked paths found in a workspace by one bounded walk, each with a signature of its state. */
export interface BlockedSnapshot {
  /** Absolute path → `<inode>#<state>` (kind, size, mtime, mode; for a directory, of everything under it). */
  readonly paths: ReadonlyMap<string, string>;
  /** Whether the walk stopped at its entry bound; blocked paths past it are not in `paths`. */
  readonly truncated: boolean;
}

/** A blocked path a command created (or replaced by another inode, e.g. after `mv .git .gitx`) or changed in place. */
export interface BlockedChange {
  readonly path: string;
  readonly change: 'created' | 'changed';
}

/**
 * What changed between two snapshots, leaving out the `stubs` the sandbox itself made (empty mount points for
 * paths missing at start), which the caller removes quietly when they are still empty.
 */
export function diffBlockedSnapshots(before: BlockedSnapshot, after: BlockedSnapshot, stubs: ReadonlySet<string> = new Set()): BlockedChange[] {
  const changes: BlockedChange[] = [];
  for (const [path, signature] of after.paths) {
    const was = before.paths.get(path);
    if (was === undefined) {
      if (!(stubs.has(path) && stateOf(signature) === EMPTY_DIR_SIGNATURE)) changes.push({ path, change: 'created' });
    } else if (inodeOf(was) !== inodeOf(signature)) changes.push({ path, change: 'created' });
    else if (was !== signature) changes.push({ path, change: 'changed' });
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/** The state the walk gives an empty directory, whatever its inode and time (a sandbox mount point). */
export const EMPTY_DIR_SIGNATURE = 'empty-dir';

/** The inode part of a walk's signature. */
export const inodeOf = (signature: string): string => signature.slice(0, signature.indexOf('#'));
/** What a mount-point inode is recorded as for a path that did not exist (a stub before its sandbox made it). */
export const MISSING_INODE = 'missing';
const stateOf = (signature: string): string => signature.slice(signature.indexOf('#') + 1);

/**
 * Missing paths at the workspace's top that the sandbox covers with an empty read-only mount so a command cannot
 * create them: every single-segment `any`-depth entry of `list` (`.ssh`, `.bashrc`, `.envrc`, ...) and a
 * two-segment one whose parent exists (`.git/hooks` under an existing `.git`), except entries marked `stub: false`
 * (a file a program reads in place, which an empty directory would break). `exists` answers for the real disk.
 */
export function topLevelStubs(workspaceRoot: string, exists: (path: string) => boolean, isDir: (path: string) => boolean, list: readonly BlockedEntry[] = DEFAULT_BLOCKLIST): string[] {
  const stubs: string[] = [];
  for (const entry of list) {
    // A missing `.git` is no stub: `git init` may make the directory; a .git file made instead is found after.
    if (entry.depth !== 'any' || entry.only !== undefined || entry.stub === false || entry.segments.includes('**')) continue;
    const path = posix.join(workspaceRoot, ...entry.segments);
    const parent = posix.dirname(path);
    if (exists(path)) continue;
    if (parent === workspaceRoot || (entry.segments.length === 2 && isDir(parent))) stubs.push(path);
  }
  return [...new Set(stubs)];
}
