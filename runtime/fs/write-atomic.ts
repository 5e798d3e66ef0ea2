import { randomBytes } from 'node:crypto';
import { close, constants, fchmodSync, fchownSync, fsync, lstatSync, open, rename, unlinkSync, writeFile, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { toFsError } from './fs-error.js';
import { openParentForWrite } from './mkdir-verified.js';
import type { IsAllowed } from './open-verified.js';
import type { VerifiedDir } from './verified-dir.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// The steps that wait on the disk's journal run on libuv's thread pool: under many writers an fsync takes tens of
// milliseconds, and a create or rename in the same directory waits behind it (up to 14 ms measured with 64 writers),
// which must not block the host's event loop. Every path is still the verified directory's descriptor path.
const fsyncAsync = promisify(fsync);
const openAsync = promisify(open);
const writeAsync = promisify(writeFile);
const closeAsync = promisify(close);
const renameAsync = promisify(rename);

/**
 * Replaces (or creates) the file `checked` atomically ({@link writeFileIn} in its verified parent directory).
 * Throws OUTSIDE_WORKSPACE when `isAllowed` refuses it, NOT_FOUND when the parent is missing, BLOCKED_PATH when the
 * parent was swapped for a link, and what {@link writeFileIn} throws.
 */
export async function writeFileAtomic(checked: CheckedPath, data: string | Uint8Array, isAllowed: IsAllowed): Promise<{ created: boolean }> {
  const { dir, name } = openParentForWrite(checked, isAllowed, false);
  try {
    return await writeFileIn(dir, name, data);
  } finally {
    dir.close();
  }
}

/**
 * Replaces (or creates) the file `name` in the verified directory `dir` atomically: a temp file with a random name
 * is created in that directory (O_EXCL, O_NOFOLLOW), written and fsynced, given the existing file's mode (and owner,
 * when permitted), and renamed over the target within the same directory; then the directory is fsynced. On Linux
 * every step goes through the directory's descriptor, so a swap of any path component cannot move a byte, a temp
 * file or the rename elsewhere. A symlink at the target (swapped in after the check) is refused with SYMLINK_LOOP
 * rather than replaced; a directory or special file is CONFLICT. The temp file is removed on failure. The create,
 * write, fsyncs, close and rename run on libuv's thread pool; the directory stays open throughout.
 */
export async function writeFileIn(dir: VerifiedDir, name: string, data: string | Uint8Array): Promise<{ created: boolean }> {
  const target = path.join(dir.path, name);
  const existing = statExistingFile(dir.entry(name), target);
  const tempName = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.tw-tmp`;
  let fd: number;
  try {
    fd = await openAsync(dir.entry(tempName), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, existing ? 0o600 : 0o666);
  } catch (error) {
    throw toFsError(error, 'create a temp file for', target);
  }
  try {
    try {
      if (existing) keepOwnership(fd, existing);
      await writeAsync(fd, data);
      await fsyncAsync(fd);
    } finally {
      await closeAsync(fd);
    }
    await renameAsync(dir.entry(tempName), dir.entry(name));
  } catch (error) {
    removeQuietly(dir, tempName);
    throw toFsError(error, 'write', target);
  }
  await syncDirectory(dir);
  return { created: existing === undefined };
}

function statExistingFile(entry: string, target: string): Stats | undefined {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(entry, { throwIfNoEntry: false });
  } catch (error) {
    throw toFsError(error, 'write', target);
  }
  if (stat?.isSymbolicLink()) throw new ToolwardenError('SYMLINK_LOOP', `cannot write ${target}: it became a symlink after it was checked`);
  if (stat && !stat.isFile()) throw new ToolwardenError('CONFLICT', `cannot write ${target}: it is a directory or a special file, not a regular file`);
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

function removeQuietly(dir: VerifiedDir, name: string): void {
  try {
    unlinkSync(dir.entry(name));
  } catch {
    // Already gone (the rename succeeded before a later step failed) or never created.
  }
}

// Makes the rename durable; directories cannot be fsynced on Windows, where NTFS journals the rename itself.
async function syncDirectory(dir: VerifiedDir): Promise<void> {
  if (dir.fd === undefined) return;
  try {
    await fsyncAsync(dir.fd);
  } catch (error) {
    throw toFsError(error, 'sync the directory', dir.path);
  }
}
