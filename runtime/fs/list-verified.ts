import { readdirSync, type Dirent } from 'node:fs';
import { toFsError } from './fs-error.js';
import type { IsAllowed } from './open-verified.js';
import { openDirectory, isThroughDescriptor } from './verified-dir.js';

/**
 * The entries of the directory `checked`, read through its descriptor: the directory is opened without following
 * a final link, its real path must pass `isAllowed`, and on Linux the listing is read from `/proc/self/fd/<fd>`, the
 * very directory that was verified, so a component swapped for a link to an outside directory cannot be listed.
 * Throws NOT_FOUND, CONFLICT for a file, BLOCKED_PATH for a swapped final link, NOT_READABLE when the real path is
 * refused.
 */
export function listVerified(checked: string, isAllowed: IsAllowed): Dirent[] {
  const dir = openDirectory(checked, 'allowed', isAllowed);
  try {
    // Off Linux the verified path is read again by name: the window docs/paths.md documents.
    return readdirSync(isThroughDescriptor() ? `/proc/self/fd/${dir.fd}` : checked, { withFileTypes: true });
  } catch (error) {
    throw toFsError(error, 'list', checked);
  } finally {
    dir.close();
  }
}
