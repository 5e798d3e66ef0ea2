import { posix } from 'node:path';
import type { ShellFs } from './types.js';

// As the kernel's MAXSYMLINKS: past this many links in one lookup, the lookup fails (ELOOP).
const MAX_LINKS = 40;

/**
 * Where a path lookup lands (`throughLink` when a symlink on the way led there), or why the check cannot say before
 * the command runs (a reason that names no path: the word it is about is the caller's to name).
 */
export type Lookup = { path: string; throughLink: boolean } | { unresolved: string };

/**
 * Resolves `target` from `cwd` the way the kernel does: component by component, following every symlink met
 * and taking `..` from the directory actually reached, not lexically (`self/../x` with `self -> .`). A `..`
 * after a component that does not exist yet cannot be decided (the command line may create a link there).
 */
export function lookupPhysical(fs: ShellFs, cwd: string, target: string): Lookup {
  const start = target.startsWith('/') ? [] : splitAbsolute(cwd);
  const pending = target.split('/');
  let throughLink = false;
  if (!target.startsWith('/')) {
    const base = lookupPhysical(fs, '/', cwd);
    if ('unresolved' in base) return base;
    throughLink = base.throughLink;
    start.splice(0, start.length, ...splitAbsolute(base.path));
  }
  const reached = start;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      reached.pop();
      continue;
    }
    const next = `/${[...reached, part].join('/')}`;
    const kind = fs.kind(next);
    if (kind === 'link') {
      const link = fs.readlink(next);
      if (link === null || ++links > MAX_LINKS) return { unresolved: 'it leads through a symlink loop, or a link the check may not read' };
      throughLink = true;
      if (link.startsWith('/')) reached.length = 0;
      pending.unshift(...link.split('/'));
      continue;
    }
    if (kind === null) {
      if (pending.includes('..')) return { unresolved: 'a ".." follows an entry the check cannot see: one that does not exist yet (the command line may make it a link), or one outside what the session may read' };
      return { path: posix.join(next, ...pending), throughLink };
    }
    reached.push(part);
  }
  return { path: `/${reached.join('/')}`, throughLink };
}

function splitAbsolute(p: string): string[] {
  return posix.resolve(p).split('/').filter((s) => s !== '');
}
