import { lstatSync, readlinkSync } from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import type { GuardFs } from '../../src/path-guard/index.js';

/**
 * The guard's filesystem view over sync `node:fs` (lstat about 4 µs): missing entries, and entries under a
 * non-directory, read as `undefined`; other errors (EACCES, ENAMETOOLONG) are thrown. A link that is gone or no
 * longer a link when its target is read (swapped while the guard walked it) is CONFLICT.
 */
export function createNodeGuardFs(): GuardFs {
  return {
    lstat(p) {
      try {
        return lstatSync(p, { throwIfNoEntry: false });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
        throw error;
      }
    },
    readlink(p) {
      try {
        return readlinkSync(p, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EINVAL' && code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
        throw new ToolwardenError('CONFLICT', `path ${p} changed while it was being checked (the symlink there is gone); nothing was done, try again`);
      }
    },
  };
}
