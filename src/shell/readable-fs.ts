import { posix } from 'node:path';
import type { ShellFs } from './types.js';

// As the kernel's MAXSYMLINKS: past this many links in one lookup, the lookup fails.
const MAX_LINKS = 40;
// Kernel magic links there lead to other processes' roots and open files: never looked at, even when all is readable.
const MAGIC = ['/proc', '/dev/fd', '/dev/stdin', '/dev/stdout', '/dev/stderr'];

/** What a session may read, for the checker: its roots (canonical), or everything but the kernel's magic paths. */
export interface ReadableArea {
  roots: readonly string[];
  everywhere: boolean;
}

const inside = (p: string, root: string): boolean => p === root || root === '/' || p.startsWith(`${root}/`);

/**
 * The filesystem as the checker may see it: only what the session itself may read. An entry is looked at (lstat,
 * readlink) only when the directory holding it, reached physically, is readable; a directory is listed only when it
 * is. Outside, every entry reads as absent, so nothing the check decides or says depends on what lies there: a glob
 * there matches nothing and is checked (and refused) as written. The roots and their ancestors read as directories
 * (they were made canonical when the session opened), and a `.git` in an ancestor of a root is looked at, since git
 * run inside a root finds its repository there.
 */
export function readableFs(fs: ShellFs, area: ReadableArea): ShellFs {
  const readable = (dir: string): boolean => !MAGIC.some((m) => inside(dir, m)) && (area.everywhere || area.roots.some((root) => inside(dir, root)));
  const ancestors = new Set<string>();
  for (const root of area.roots) for (let dir = root; ; dir = posix.dirname(dir)) {
    ancestors.add(dir);
    if (dir === '/') break;
  }
  const physical = new Map<string, string | null>();
  // Where `dir` (absolute) is, links followed while they stand in readable directories; null once it passes outside.
  const reach = (dir: string): string | null => {
    if (physical.has(dir)) return physical.get(dir) ?? null;
    const pending = dir.split('/');
    const reached: string[] = [];
    let links = 0;
    let found: string | null = null;
    for (;;) {
      const part = pending.shift();
      if (part === undefined) {
        found = `/${reached.join('/')}`;
        break;
      }
      if (part === '' || part === '.') continue;
      if (part === '..') {
        reached.pop();
        continue;
      }
      const parent = `/${reached.join('/')}`;
      const next = posix.join(parent, part);
      if (ancestors.has(next) && !area.everywhere) {
        reached.push(part);
        continue;
      }
      if (!readable(parent)) break;
      if (fs.kind(next) !== 'link') {
        reached.push(part);
        continue;
      }
      const target = fs.readlink(next);
      if (target === null || ++links > MAX_LINKS) break;
      if (target.startsWith('/')) reached.length = 0;
      pending.unshift(...target.split('/'));
    }
    physical.set(dir, found);
    return found;
  };
  // The entry `p` names, its directory reached physically, when that directory may be read; else null.
  const entry = (p: string): string | null => {
    const dir = reach(posix.dirname(p));
    return dir !== null && readable(dir) ? posix.join(dir, posix.basename(p)) : null;
  };
  return {
    kind: (p) => {
      if (!area.everywhere && ancestors.has(posix.resolve(p))) return 'dir';
      if (posix.basename(p) === '.git' && ancestors.has(posix.dirname(posix.resolve(p)))) return fs.kind(p);
      const at = entry(p);
      return at === null ? null : fs.kind(at);
    },
    readlink: (p) => {
      const at = entry(p);
      return at === null ? null : fs.readlink(at);
    },
    list: (p) => {
      const dir = reach(p);
      return dir !== null && readable(dir) ? fs.list(dir) : null;
    },
  };
}
