import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fchownSync, fsync, lstatSync, openSync, renameSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { getFdRealPath, verifyDirectory } from './fd-path.js';
import { toFsError } from './fs-error.js';
import type { IsAllowed } from './open-verified.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// fsync runs on libuv's thread pool: on a busy disk it can take tens of milliseconds, which must not block the broker.
const fsyncAsync = promisify(fsync);

/**
 * Replaces (or creates) a file atomically: a temp file with a random name is created in the same directory
 * (O_EXCL, O_NOFOLLOW), its fd's real path is checked before any data is written, the data is written and
 * fsynced, the existing file's mode (and owner, when permitted) is kept, the parent directory is verified through
 * its own fd right before the rename, and the rename replaces the target. A symlink found at the target (swapped
 * in after the check, since a checked path never ends in one) is refused with SYMLINK_LOOP rather than replaced;
 * a rename never writes through a link either way. The temp file is removed on failure.
 * Throws CONFLICT for a directory or special file at the target, BLOCKED_PATH when the directory was swapped,
 * OUTSIDE_WORKSPACE when `isAllowed` refuses the real target. Only the two fsyncs are asynchronous: the checks and
 * the rename that follows them run with no await in between.
 */
export async function writeFileAtomic(checked: CheckedPath, data: string | Uint8Array, isAllowed: IsAllowed): Promise<void> {
  const dir = path.dirname(checked);
  const existing = statExistingFile(checked);
  checkAllowed(checked, isAllowed);
  verifyDirectory(dir);
  const temp = path.join(dir, `.${path.basename(checked).slice(0, 100)}.${randomBytes(6).toString('hex')}.tw-tmp`);
  let fd: number;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, existing ? 0o600 : 0o666);
  } catch (error) {
    throw toFsError(error, 'create a temp file for', checked);
  }
  try {
    try {
      if (path.dirname(getFdRealPath(fd, temp)) !== dir) {
        throw new ToolwardenError('BLOCKED_PATH', `cannot write ${checked}: its directory was swapped for a symlink after the check`);
      }
      if (existing) keepOwnership(fd, existing);
      writeFileSync(fd, data);
      await fsyncAsync(fd);
    } finally {
      closeSync(fd);
    }
    checkAllowed(checked, isAllowed);
    // Node has no renameat: verifying the directory last leaves the smallest window before the path-based rename.
    verifyDirectory(dir);
    renameSync(temp, checked);
  } catch (error) {
    removeQuietly(temp);
    throw toFsError(error, 'write', checked);
  }
  await syncDirectory(dir);
}

function checkAllowed(checked: string, isAllowed: IsAllowed): void {
  if (!isAllowed(checked)) throw new ToolwardenError('OUTSIDE_WORKSPACE', `cannot write ${checked}: this session may not write it`);
}

function statExistingFile(checked: string): Stats | undefined {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(checked, { throwIfNoEntry: false });
  } catch (error) {
    throw toFsError(error, 'write', checked);
  }
  if (stat?.isSymbolicLink()) throw new ToolwardenError('SYMLINK_LOOP', `cannot write ${checked}: it became a symlink after it was checked`);
  if (stat && !stat.isFile()) throw new ToolwardenError('CONFLICT', `cannot write ${checked}: it is a directory or a special file, not a regular file`);
  return stat;
}

function keepOwnership(fd: number, existing: Stats): void {
  fchmodSync(fd, existing.mode & 0o7777);
  try {
    fchownSync(fd, existing.uid, existing.gid);
  } catch {
    // Only root may give a file away; an unprivileged broker keeps its own ownership, as any editor would.
  }
}

function removeQuietly(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // Already gone (the rename succeeded before a later step failed) or never created.
  }
}

// Makes the rename durable; directories cannot be fsynced on Windows, where NTFS journals the rename itself.
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    try {
      await fsyncAsync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw toFsError(error, 'sync the directory', dir);
  }
}
