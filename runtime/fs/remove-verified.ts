import { lstatSync, rmdirSync, unlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { toFsError } from './fs-error.js';
import { openParentForWrite } from './mkdir-verified.js';
import type { IsAllowed } from './open-verified.js';
import { openDirectory, type VerifiedDir } from './verified-dir.js';

/**
 * Deletes one file (for a patch's Delete) through its verified parent directory ({@link removeFileIn}). Throws
 * OUTSIDE_WORKSPACE when `isAllowed` refuses it, BLOCKED_PATH when the parent was swapped for a link.
 */
export function removeVerified(checked: CheckedPath, isAllowed: IsAllowed): void {
  const { dir, name } = openParentForWrite(checked, isAllowed, false);
  try {
    removeFileIn(dir, name);
  } finally {
    dir.close();
  }
}

/**
 * Deletes the file `name` in the verified directory `dir` (unlinkat through its descriptor on Linux), so a path
 * component swapped for a link cannot make it delete a file elsewhere. Throws NOT_FOUND when missing, CONFLICT for
 * a directory, SYMLINK_LOOP when the file became a symlink after the check.
 */
export function removeFileIn(dir: VerifiedDir, name: string): void {
  const target = path.join(dir.path, name);
  let stat: Stats | undefined;
  try {
    stat = lstatSync(dir.entry(name), { throwIfNoEntry: false });
  } catch (error) {
    throw toFsError(error, 'delete', target);
  }
  if (stat === undefined) throw new ToolwardenError('NOT_FOUND', `cannot delete ${target}: no such file`);
  if (stat.isSymbolicLink()) throw new ToolwardenError('SYMLINK_LOOP', `cannot delete ${target}: it became a symlink after it was checked`);
  if (stat.isDirectory()) throw new ToolwardenError('CONFLICT', `cannot delete ${target}: it is a directory (only files are deleted here)`);
  try {
    unlinkSync(dir.entry(name));
  } catch (error) {
    throw toFsError(error, 'delete', target);
  }
}

/**
 * Removes the directories a failed change made (`made`, parents first, as {@link openParentForWrite} pushes them),
 * deepest first, each through its parent opened and verified again (rmdirat through the descriptor on Linux) and only
 * while empty: one that something else filled meanwhile stays, and so does one whose parent became a link, so a
 * rollback never removes anything it did not make. Best effort: what cannot be removed stays.
 */
export function removeMadeDirectories(made: readonly string[]): void {
  for (const dir of [...made].reverse()) {
    try {
      const parent = openDirectory(path.dirname(dir), 'exact');
      try {
        rmdirSync(parent.entry(path.basename(dir)));
      } finally {
        parent.close();
      }
    } catch {
      // not empty, swapped or gone: it stays, and so do its parents (their rmdir fails the same way)
    }
  }
}
