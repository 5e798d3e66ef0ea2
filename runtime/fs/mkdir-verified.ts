import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { PATH_RULES, PathRefusal, type CheckedPath } from '../../src/path-guard/index.js';
import { toFsError } from './fs-error.js';
import type { IsAllowed } from './open-verified.js';
import { openChildDirectory, openDirectory, type VerifiedDir } from './verified-dir.js';

/**
 * Opens the directory `checked` for writing in it, like `mkdir -p` when `create`: the nearest existing ancestor is
 * opened and verified (its descriptor's real path must be itself), then each missing directory is made and opened
 * through its parent's descriptor (mkdirat, openat with O_NOFOLLOW on Linux), so none can land outside even when a
 * component is swapped for a link meanwhile. Each directory made must pass `isAllowed` before the next is made in
 * it (else OUTSIDE_WORKSPACE); directories already made are left in place. Throws NOT_FOUND when `checked` is
 * missing and `create` is false, CONFLICT when a file is in the way, BLOCKED_PATH or SYMLINK_LOOP when a link was
 * swapped in. Each directory it makes is pushed on `made` (parents first), for a rollback to remove. The caller
 * closes the returned directory.
 */
export function openWritableDirectory(checked: string, isAllowed: IsAllowed, create: boolean, made?: string[]): VerifiedDir {
  const missing: string[] = [];
  let existing = checked;
  while (create && statEntry(existing) === undefined && path.dirname(existing) !== existing) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  let dir = openDirectory(existing, 'exact');
  try {
    if (missing.length === 0) checkAllowed(existing, isAllowed);
    for (const name of missing) {
      try {
        mkdirSync(dir.entry(name));
        made?.push(path.join(dir.path, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw toFsError(error, 'create directory', path.join(dir.path, name));
      }
      checkAllowed(path.join(dir.path, name), isAllowed);
      const child = openChildDirectory(dir, name);
      dir.close();
      dir = child;
    }
    return dir;
  } catch (error) {
    dir.close();
    throw error;
  }
}

/**
 * Opens the parent of the file `checked` for writing ({@link openWritableDirectory}, making missing parents when
 * `createParents`, each pushed on `made`) after checking the file itself passes `isAllowed` (else OUTSIDE_WORKSPACE).
 */
export function openParentForWrite(checked: CheckedPath, isAllowed: IsAllowed, createParents: boolean, made?: string[]): { dir: VerifiedDir; name: string } {
  if (!isAllowed(checked)) throw new PathRefusal('OUTSIDE_WORKSPACE', checked, PATH_RULES.notWritableHere);
  return { dir: openWritableDirectory(path.dirname(checked), isAllowed, createParents, made), name: path.basename(checked) };
}

/**
 * Creates a directory and its missing parents one level at a time, like `mkdir -p`, through verified descriptors
 * ({@link openWritableDirectory}). An existing directory is verified the same way.
 */
export function mkdirVerified(checked: CheckedPath, isAllowed: IsAllowed): void {
  openWritableDirectory(checked, isAllowed, true).close();
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
  if (!isAllowed(dir)) throw new PathRefusal('OUTSIDE_WORKSPACE', dir, PATH_RULES.notWritableHere);
}
