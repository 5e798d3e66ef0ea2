import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { verifyDirectory } from './fd-path.js';
import { toFsError } from './fs-error.js';
import type { IsAllowed } from './open-verified.js';

/**
 * Creates a directory and its missing parents one level at a time, like `mkdir -p`. The nearest existing
 * ancestor must still be reached without symlinks, and each directory created is re-verified through its own fd
 * (it must pass `isAllowed` and its real path must be itself) before the next is made inside it; the first that
 * is not stops the call (OUTSIDE_WORKSPACE or BLOCKED_PATH). Directories already made are left in place: after a
 * swap, removing "ours" by path could remove someone else's. An existing directory is verified the same way.
 * Throws CONFLICT when a file is in the way, SYMLINK_LOOP when a link was swapped in.
 */
export function mkdirVerified(checked: CheckedPath, isAllowed: IsAllowed): void {
  const missing: string[] = [];
  let existing = checked as string;
  while (statEntry(existing) === undefined && path.dirname(existing) !== existing) {
    missing.unshift(existing);
    existing = path.dirname(existing);
  }
  verifyDirectory(existing);
  if (missing.length === 0) checkAllowed(existing, isAllowed);
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw toFsError(error, 'create directory', dir);
      statEntry(dir);
    }
    checkAllowed(dir, isAllowed);
    verifyDirectory(dir);
  }
}

function statEntry(p: string): Stats | undefined {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(p, { throwIfNoEntry: false });
  } catch (error) {
    throw toFsError(error, 'create directory', p);
  }
  if (stat?.isSymbolicLink()) throw new ToolwardenError('SYMLINK_LOOP', `cannot create directory ${p}: it became a symlink after it was checked`);
  if (stat && !stat.isDirectory()) throw new ToolwardenError('CONFLICT', `cannot create directory ${p}: a file is in the way`);
  return stat;
}

function checkAllowed(dir: string, isAllowed: IsAllowed): void {
  if (!isAllowed(dir)) throw new ToolwardenError('OUTSIDE_WORKSPACE', `cannot create directory ${dir}: this session may not write it`);
}
