import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { toFsError } from './fs-error.js';
import type { VerifiedDir } from './verified-dir.js';

// O_NONBLOCK keeps a FIFO swapped in from blocking the broker's thread in open().
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of the regular file `name` in the verified directory `dir` (opened through its descriptor, O_NOFOLLOW),
 * or undefined when it does not exist. Throws SYMLINK_LOOP for a link swapped in, CONFLICT for a directory,
 * UNSUPPORTED_FILE for a FIFO, socket or device.
 */
export function readFileIn(dir: VerifiedDir, name: string): Buffer | undefined {
  const target = path.join(dir.path, name);
  let fd: number;
  try {
    fd = openSync(dir.entry(name), READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new ToolwardenError('SYMLINK_LOOP', `cannot read ${target}: it became a symlink after it was checked`);
    throw toFsError(error, 'read', target);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new ToolwardenError('CONFLICT', `cannot read ${target}: it is a directory`);
    if (!stat.isFile()) throw new ToolwardenError('UNSUPPORTED_FILE', `cannot read ${target}: it is not a regular file (a FIFO, socket or device)`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The lstat of the entry `name` in the verified directory `dir` (fstatat through its descriptor), or undefined when missing. */
export function statIn(dir: VerifiedDir, name: string): Stats | undefined {
  try {
    return lstatSync(dir.entry(name), { throwIfNoEntry: false });
  } catch (error) {
    throw toFsError(error, 'stat', path.join(dir.path, name));
  }
}
