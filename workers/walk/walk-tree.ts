import { lstatSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { PATH_RULES, PathRefusal } from '../../src/path-guard/index.js';
import { isIgnoredName } from '../../src/walk/ignore-rules.js';
import { isInsideRoots } from '../../src/walk/scope.js';
import { openWalkDir } from './walk-dir.js';

/** Where and how deep a walk goes. */
export interface WalkOptions {
  /** Canonical readable roots: a link is followed only when its real path is inside one. */
  readonly scopeRoots: readonly string[];
  /** Walk `.git` and `node_modules` too. */
  readonly includeIgnored: boolean;
  /** Literal leading segments: at depth d only the entry named `prefix[d]` is entered. @default [] */
  readonly prefix?: readonly string[];
  /** Deepest relative path, in segments, worth visiting. @default unbounded */
  readonly maxSegments?: number;
}

/**
 * Receives each file as its `/`-separated path relative to the walk root, its real path, and the path to open it by
 * (through its verified directory's descriptor on Linux; the real path for a file reached through a link, which the
 * reader must verify); return false to stop.
 */
export type OnWalkFile = (relativePath: string, realPath: string, openPath: string) => boolean;

interface Pending {
  readonly real: string;
  readonly rel: string;
  readonly depth: number;
}

/**
 * Walks the directory `rootReal` synchronously (in a pool thread, sync fs avoids a promise per entry) in a
 * deterministic order: names sorted by code unit, the real tree first, then directory links. A link is followed
 * only when its real path is inside a scope root, and a directory link only when its real directory has not been
 * walked yet, so loops end and a tree reachable by two routes is reported once, under its real name when it has one.
 * Each directory is read through its own verified descriptor ({@link openWalkDir}): one swapped for a link after it
 * was listed is skipped. Unreadable entries, dangling links and special files are skipped.
 * @returns false when `onFile` stopped the walk.
 */
export function walkFiles(rootReal: string, options: WalkOptions, onFile: OnWalkFile): boolean {
  const visited = new Set<string>([rootReal]);
  const links: Pending[] = [];
  const stack: Pending[] = [{ real: rootReal, rel: '', depth: 0 }];
  for (;;) {
    for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
      if (!walkDirectory(dir, options, visited, stack, links, onFile)) return false;
    }
    const link = links.shift();
    if (link === undefined) return true;
    if (visited.has(link.real)) continue;
    visited.add(link.real);
    stack.push(link);
  }
}

function walkDirectory(dir: Pending, options: WalkOptions, visited: Set<string>, stack: Pending[], links: Pending[], onFile: OnWalkFile): boolean {
  const opened = openWalkDir(dir.real);
  if (opened === undefined) return true;
  const subdirs: Pending[] = [];
  try {
    const entries = opened.entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const prefixName = options.prefix?.[dir.depth];
    const maxSegments = options.maxSegments ?? Infinity;
    for (const entry of entries) {
      const name = entry.name;
      if (prefixName !== undefined && name !== prefixName) continue;
      if (isIgnoredName(name, options.includeIgnored)) continue;
      const rel = dir.rel === '' ? name : `${dir.rel}/${name}`;
      const real = join(dir.real, name);
      const kind = classifyEntry(entry, opened.entryPath(name));
      if (kind === 'file') {
        if (dir.depth + 1 <= maxSegments && !onFile(rel, real, opened.entryPath(name))) return false;
      } else if (kind === 'dir') {
        if (dir.depth + 1 < maxSegments) subdirs.push({ real, rel, depth: dir.depth + 1 });
      } else if (kind === 'link') {
        const target = resolveLinkInScope(real, options.scopeRoots);
        if (target === undefined) continue;
        if (target.isDir) {
          if (dir.depth + 1 < maxSegments) links.push({ real: target.real, rel, depth: dir.depth + 1 });
        } else if (dir.depth + 1 <= maxSegments && !onFile(rel, target.real, target.real)) {
          return false;
        }
      }
    }
  } finally {
    opened.close();
  }
  // Pushed in reverse so the stack pops them in sorted order.
  for (let i = subdirs.length - 1; i >= 0; i -= 1) {
    const subdir = subdirs[i] as Pending;
    visited.add(subdir.real);
    stack.push(subdir);
  }
  return true;
}

type EntryKind = 'file' | 'dir' | 'link' | 'other';

function classifyEntry(entry: Dirent, fullPath: string): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) return 'other';
  // Some filesystems report no type in readdir; ask lstat (never stat: a link must stay a link).
  try {
    const stats = lstatSync(fullPath);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'dir' : stats.isSymbolicLink() ? 'link' : 'other';
  } catch {
    return 'other';
  }
}

function resolveLinkInScope(linkPath: string, scopeRoots: readonly string[]): { real: string; isDir: boolean } | undefined {
  try {
    const real = realpathSync.native(linkPath);
    if (!isInsideRoots(real, scopeRoots)) return undefined;
    const stats = statSync(real);
    if (stats.isDirectory()) return { real, isDir: true };
    return stats.isFile() ? { real, isDir: false } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Canonicalizes the walk root and checks it against the scope (the broker checked it already; this thread
 * re-checks because it is the one doing the reads).
 * @throws ToolwardenError NOT_FOUND when the root does not exist, NOT_READABLE when it is outside every scope root.
 */
export function resolveWalkRoot(root: string, scopeRoots: readonly string[]): { real: string; isDir: boolean } {
  let real: string;
  try {
    real = realpathSync.native(root);
  } catch {
    throw new ToolwardenError('NOT_FOUND', `search path '${root}' does not exist`);
  }
  if (!isInsideRoots(real, scopeRoots)) {
    throw new PathRefusal('NOT_READABLE', root, PATH_RULES.outsideReadable(scopeRoots), real !== root);
  }
  return { real, isDir: statSync(real).isDirectory() };
}
