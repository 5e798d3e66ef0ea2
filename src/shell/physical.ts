import { posix } from 'node:path';
import type { ShellFs } from './types.js';

// As the kernel's MAXSYMLINKS: past this many links in one lookup, the lookup fails (ELOOP).
const MAX_LINKS = 40;

/** Where a path lookup lands, or why the check cannot say before the command runs. */
export type Lookup = { path: string } | { unresolved: string };

/**
 * Resolves `target` from `cwd` the way the kernel does: component by component, following every symlink met
 * and taking `..` from the directory actually reached, not lexically (`self/../x` with `self -> .`). A `..`
 * after a component that does not exist yet cannot be decided (the command line may create a link there).
 */
export function lookupPhysical(fs: ShellFs, cwd: string, target: string): Lookup {
  const start = target.startsWith('/') ? [] : splitAbsolute(cwd);
  const pending = target.split('/');
  if (!target.startsWith('/')) {
    const base = lookupPhysical(fs, '/', cwd);
    if ('unresolved' in base) return base;
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
      if (link === null || ++links > MAX_LINKS) return { unresolved: `${next} is a symlink loop or cannot be read` };
      if (link.startsWith('/')) reached.length = 0;
      pending.unshift(...link.split('/'));
      continue;
    }
    if (kind === null) {
      if (pending.includes('..')) return { unresolved: `a ".." follows ${next}, which does not exist yet (the command line may make it a link)` };
      return { path: posix.join(next, ...pending) };
    }
    reached.push(part);
  }
  return { path: `/${reached.join('/')}` };
}

function splitAbsolute(p: string): string[] {
  return posix.resolve(p).split('/').filter((s) => s !== '');
}
