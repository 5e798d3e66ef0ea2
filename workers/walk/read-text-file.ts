import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isStillAt } from './walk-dir.js';

/** Bytes inspected for a NUL to call a file binary, as git and ripgrep do. */
const BINARY_PROBE_BYTES = 8192;

// O_NOFOLLOW: a file swapped for a link after the walk listed it is not read. O_NONBLOCK: a FIFO swapped in
// does not block the thread.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads a regular file as UTF-8 text, or returns undefined when it is not a regular file, is larger than
 * `maxBytes`, has a NUL byte in its first 8 KiB (binary), or cannot be read. `openPath` names it through its
 * verified directory's descriptor, or by its real path: then `verifyAt` is that real path and the opened file must
 * still be there (a component swapped for a link to the outside is not read).
 */
export function readTextFile(openPath: string, maxBytes: number, verifyAt?: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(openPath, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (verifyAt !== undefined && !isStillAt(fd, verifyAt)) return undefined;
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(stats.size);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    const bytes = buffer.subarray(0, length);
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
