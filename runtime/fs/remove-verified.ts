import { lstatSync, unlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { verifyDirectory } from './fd-path.js';
import { toFsError } from './fs-error.js';
import type { IsAllowed } from './open-verified.js';

/**
 * Deletes one file (for a patch's Delete). The parent directory is verified through its own fd first, so a
 * parent swapped for a link is refused (BLOCKED_PATH) instead of deleting a file elsewhere. Throws NOT_FOUND
 * when missing, CONFLICT for a directory, SYMLINK_LOOP when the file became a symlink after the check,
 * OUTSIDE_WORKSPACE when `isAllowed` refuses it.
 */
export function removeVerified(checked: CheckedPath, isAllowed: IsAllowed): void {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(checked, { throwIfNoEntry: false });
  } catch (error) {
    throw toFsError(error, 'delete', checked);
  }
  if (stat === undefined) throw new ToolwardenError('NOT_FOUND', `cannot delete ${checked}: no such file`);
  if (stat.isSymbolicLink()) throw new ToolwardenError('SYMLINK_LOOP', `cannot delete ${checked}: it became a symlink after it was checked`);
  if (stat.isDirectory()) throw new ToolwardenError('CONFLICT', `cannot delete ${checked}: it is a directory (only files are deleted here)`);
  if (!isAllowed(checked)) throw new ToolwardenError('OUTSIDE_WORKSPACE', `cannot delete ${checked}: this session may not write it`);
  // Node has no unlinkat: verifying the parent last leaves the smallest window before the path-based unlink.
  verifyDirectory(path.dirname(checked));
  try {
    unlinkSync(checked);
  } catch (error) {
    throw toFsError(error, 'delete', checked);
  }
}
