import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import { PATH_RULES, PathRefusal } from '../../src/path-guard/index.js';
import { toFsError } from './fs-error.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/**
 * The real path of what an open fd refers to. On Linux it is read from `/proc/self/fd/N`, which names the object
 * itself, so a path swapped after the open cannot fool it. Elsewhere it is `realpath(openedPath)`, accepted only
 * when that names the same inode as the fd (a swap in between is refused with BLOCKED_PATH).
 */
export function getFdRealPath(fd: number, openedPath: string): string {
  if (process.platform === 'linux') {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`, 'utf8');
    } catch {
      // /proc not mounted (some containers): fall back to the inode comparison below.
    }
  }
  const real = realpathSync.native(openedPath);
  const opened = fstatSync(fd);
  const named = statSync(real);
  if (opened.dev !== named.dev || opened.ino !== named.ino) {
    throw new PathRefusal('BLOCKED_PATH', openedPath, PATH_RULES.changing);
  }
  return real;
}

/**
 * Checks that directory `dir` (canonical) is still reached without any symlink: opens it (O_NOFOLLOW) and
 * compares its fd's real path to `dir`. Throws BLOCKED_PATH when a component was swapped for a link.
 */
export function verifyDirectory(dir: string): void {
  if (process.platform === 'win32') {
    // Windows cannot open a directory as an fd here; realpath is the best check Node offers.
    const real = realpathSync.native(dir);
    if (real !== dir) throw swappedError(dir, 'reached through a symlink');
    return;
  }
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    // O_DIRECTORY with O_NOFOLLOW on a symlink fails with ENOTDIR on Linux, ELOOP elsewhere.
    if (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) throw swappedError(dir, 'a symlink');
    throw toFsError(error, 'open directory', dir);
  }
  try {
    const real = getFdRealPath(fd, dir);
    if (real !== dir) throw swappedError(dir, 'reached through a symlink');
  } finally {
    closeSync(fd);
  }
}

function swappedError(dir: string, now: string): ToolwardenError {
  return new PathRefusal('BLOCKED_PATH', dir, PATH_RULES.swapped(now));
}
