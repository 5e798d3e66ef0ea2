import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { toFsError } from './fs-error.js';
import { openVerified, type IsAllowed } from './open-verified.js';

/**
 * Reads a whole regular file through {@link openVerified}. Throws CONFLICT for a directory, NOT_FOUND when
 * missing, and the refusals of `openVerified`. Size limits are the caller's (check `fstat` first if needed).
 */
export function readFileVerified(checked: CheckedPath, isAllowed: IsAllowed): Buffer {
  const fd = openVerified(checked, 'read', isAllowed);
  try {
    if (fstatSync(fd).isDirectory()) throw new ToolwardenError('CONFLICT', `cannot read ${checked}: it is a directory`);
    return readFileSync(fd);
  } catch (error) {
    throw toFsError(error, 'read', checked);
  } finally {
    closeSync(fd);
  }
}
