import { lstatSync, readdirSync, rmSync, type Dirent, type Stats } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { posix } from 'node:path';
import { findBlockedEntry, type BlockedEntry } from '../../src/path-guard/blocklist.js';
import { EMPTY_DIR_SIGNATURE, type BlockedSnapshot } from '../../src/sandbox/blocked-changes.js';

/** Directories one walk of the workspace visits at most before it stops and says so. @default 20000 */
export const DEFAULT_SCAN_MAX_DIRS = 20_000;
// Entries summed into one blocked directory's signature; past it the signature says "big" and changes go unseen.
const SIGNATURE_MAX_ENTRIES = 2_000;

/**
 * Walks the workspace breadth-first without following symlinks and records every path on `list` or in `excluded`
 * (absolute paths), with a signature of its state, without descending into them. Bounded by `maxDirs`.
 */
export function scanBlocked(workspaceRoot: string, list: readonly BlockedEntry[], excluded: readonly string[], maxDirs = DEFAULT_SCAN_MAX_DIRS): BlockedSnapshot {
  const paths = new Map<string, string>();
  const excludedSet = new Set(excluded);
  for (const path of excluded) {
    const stat = lstatOrUndefined(path);
    if (stat) paths.set(path, signatureOf(path, stat));
  }
  const queue = [workspaceRoot];
  let visited = 0;
  while (queue.length > 0) {
    if (visited >= maxDirs) return { paths, truncated: true };
    const dir = queue.shift() as string;
    visited += 1;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable meanwhile: nothing under it to record
    }
    // The entry's type comes with the directory read (never following a symlink, as lstat); only a blocked path
    // needs the lstat its signature is made of.
    for (const entry of entries) {
      const path = posix.join(dir, entry.name);
      if (excludedSet.has(path)) continue;
      if (findBlockedEntry(path, workspaceRoot, posix, list) !== undefined) {
        const stat = lstatOrUndefined(path);
        if (stat !== undefined) paths.set(path, signatureOf(path, stat));
      } else if (entry.isDirectory()) queue.push(path);
    }
  }
  return { paths, truncated: false };
}

/** Removes what a command created at a blocked path; returns whether it is gone. */
export function removeCreated(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true });
    return lstatOrUndefined(path) === undefined;
  } catch {
    return false;
  }
}

/**
 * Removes a mount-point stub the sandbox made, only while it is still an empty directory, on libuv's thread pool:
 * an rmdir of a directory that was a mount point takes milliseconds, and there is one stub per missing top-level
 * blocked name.
 */
export async function removeStubLater(path: string): Promise<void> {
  try {
    await rmdir(path);
  } catch {
    // not empty (then the post-check reported it) or already gone
  }
}

/** `<inode>#<state>`: the inode tells a replaced path from a changed one. */
function signatureOf(path: string, stat: Stats): string {
  return `${stat.ino}#${stateOf(path, stat)}`;
}

function stateOf(path: string, stat: Stats): string {
  if (!stat.isDirectory()) return `${kindOf(stat)}:${stat.size}:${stat.mtimeMs}:${stat.mode}`;
  const parts: string[] = [];
  const stack = [''];
  while (stack.length > 0 && parts.length < SIGNATURE_MAX_ENTRIES) {
    const relative = stack.pop() as string;
    let names: string[];
    try {
      names = readdirSync(posix.join(path, relative)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const child = posix.join(relative, name);
      const childStat = lstatOrUndefined(posix.join(path, child));
      if (childStat === undefined) continue;
      parts.push(`${child}=${childStat.isDirectory() ? 'd' : `${kindOf(childStat)}:${childStat.size}:${childStat.mtimeMs}:${childStat.ino}`}:${childStat.mode}`);
      if (childStat.isDirectory()) stack.push(child);
    }
  }
  if (parts.length === 0) return EMPTY_DIR_SIGNATURE;
  return parts.length >= SIGNATURE_MAX_ENTRIES ? `big:${parts.length}` : parts.join('|');
}

function kindOf(stat: Stats): string {
  return stat.isSymbolicLink() ? 'l' : stat.isFile() ? 'f' : 'o';
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
