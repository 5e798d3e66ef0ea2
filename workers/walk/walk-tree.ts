import { realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { PATH_RULES, PathRefusal } from '../../src/path-guard/index.js';
import { isIgnoredName } from '../../src/walk/ignore-rules.js';
import { isInsideRoots } from '../../src/walk/scope.js';
import { openVerifiedFile, openWalkDir } from './walk-dir.js';
import { defaultWalkIo, type WalkIo } from './walk-io.js';

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
  /** The descriptor calls. @default defaultWalkIo() */
  readonly io?: WalkIo;
}

/** Opens a walked file for reading: a descriptor, or -1. */
export interface FileSource {
  openFile(key: string): number;
}

/**
 * Receives each file as its `/`-separated path relative to the walk root, and how to open it: `source.openFile(key)`
 * opens it through its verified directory's descriptor (key: its name), or, for a file reached through a link, by its
 * real path verified once open (key: that path). Return false to stop.
 */
export type OnWalkFile = (relativePath: string, source: FileSource, key: string) => boolean;

interface Pending {
  readonly real: string;
  readonly rel: string;
  readonly depth: number;
}

interface WalkState {
  readonly options: WalkOptions;
  readonly io: WalkIo;
  readonly linkedFiles: FileSource;
  readonly visited: Set<string>;
  readonly stack: Pending[];
  readonly links: Pending[];
  readonly onFile: OnWalkFile;
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
  const io = options.io ?? defaultWalkIo();
  const state: WalkState = {
    options,
    io,
    linkedFiles: { openFile: (real) => openVerifiedFile(real, io) },
    visited: new Set<string>([rootReal]),
    stack: [{ real: rootReal, rel: '', depth: 0 }],
    links: [],
    onFile,
  };
  const { stack, links, visited } = state;
  for (;;) {
    for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
      if (!walkDirectory(dir, state)) return false;
    }
    const link = links.shift();
    if (link === undefined) return true;
    if (visited.has(link.real)) continue;
    visited.add(link.real);
    stack.push(link);
  }
}

function walkDirectory(dir: Pending, state: WalkState): boolean {
  const { options, onFile } = state;
  const opened = openWalkDir(dir.real, state.io);
  if (opened === undefined) return true;
  const subdirs: Pending[] = [];
  try {
    const prefixName = options.prefix?.[dir.depth];
    const maxSegments = options.maxSegments ?? Infinity;
    const depth = dir.depth + 1;
    for (const { name, kind } of opened.entries) {
      if (prefixName !== undefined && name !== prefixName) continue;
      if (isIgnoredName(name, options.includeIgnored)) continue;
      const rel = dir.rel === '' ? name : `${dir.rel}/${name}`;
      if (kind === 'file') {
        if (depth <= maxSegments && !onFile(rel, opened, name)) return false;
      } else if (kind === 'dir') {
        if (depth < maxSegments) subdirs.push({ real: childPath(dir.real, name), rel, depth });
      } else if (kind === 'link') {
        const target = resolveLinkInScope(childPath(dir.real, name), options.scopeRoots);
        if (target === undefined) continue;
        if (target.isDir) {
          if (depth < maxSegments) state.links.push({ real: target.real, rel, depth });
        } else if (depth <= maxSegments && !onFile(rel, state.linkedFiles, target.real)) {
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
    state.visited.add(subdir.real);
    state.stack.push(subdir);
  }
  return true;
}

// The real path of entry `name` of the real directory `dir`: a name from a listing is one segment, never `.` or `..`,
// so joining needs no normalizing.
function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
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
