import { posix } from 'node:path';
import { lookupPhysical } from './physical.js';
import type { ShellFs } from './types.js';

/** Past this many entries a walk stops and the command asks: the check stays bounded on every call. */
export const MAX_TREE_ENTRIES = 5000;

/**
 * Every symlink a link-following walk of `root` (absolute) would meet, following links into directories as
 * `grep -R`, `find -L` or `cp -rL` do (each directory once), down to `depth` levels below `root` (1: its entries, as
 * `ls -L` stats them); null past {@link MAX_TREE_ENTRIES} entries.
 */
export function linksInTree(fs: ShellFs, root: string, depth = Infinity): string[] | null {
  const links: string[] = [];
  const seen = new Set<string>();
  const stack: [string, number][] = [[root, 0]];
  let entries = 0;
  while (stack.length > 0) {
    const [dir, level] = stack.pop() as [string, number];
    const physical = lookupPhysical(fs, '/', dir);
    if ('unresolved' in physical || seen.has(physical.path) || level >= depth) continue;
    seen.add(physical.path);
    if (fs.kind(physical.path) !== 'dir') continue;
    for (const name of fs.list(physical.path) ?? []) {
      if (++entries > MAX_TREE_ENTRIES) return null;
      const child = posix.join(dir, name);
      const kind = fs.kind(posix.join(physical.path, name));
      if (kind === 'link') links.push(child);
      if (kind === 'link' || kind === 'dir') stack.push([child, level + 1]);
    }
  }
  return links;
}

/** One entry under a tree's root: its path relative to the root and its kind (a final symlink not followed). */
export interface TreeEntry {
  rel: string;
  kind: 'dir' | 'file' | 'link' | 'other';
}

/**
 * Every entry under `root` (absolute, physical), as a recursive copy or move meets them: symlinks are entries of
 * their own and not entered unless `follow` (cp -rL); null past {@link MAX_TREE_ENTRIES} entries.
 */
export function entriesInTree(fs: ShellFs, root: string, follow: boolean): TreeEntry[] | null {
  const out: TreeEntry[] = [];
  const seen = new Set<string>();
  const stack: string[] = [''];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    const physical = lookupPhysical(fs, '/', posix.join(root, rel));
    if ('unresolved' in physical || seen.has(physical.path) || fs.kind(physical.path) !== 'dir') continue;
    seen.add(physical.path);
    for (const name of fs.list(physical.path) ?? []) {
      if (out.length >= MAX_TREE_ENTRIES) return null;
      const child = rel === '' ? name : `${rel}/${name}`;
      const kind = fs.kind(posix.join(physical.path, name)) ?? 'other';
      out.push({ rel: child, kind });
      if (kind === 'dir' || (kind === 'link' && follow)) stack.push(child);
    }
  }
  return out;
}
