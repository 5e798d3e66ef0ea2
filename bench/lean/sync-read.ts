import fs from 'node:fs';
import path from 'node:path';

/**
 * The lean designs' guard and read, on the main thread: realpath, a containment check against the canonical
 * `root`, then open, fstat, read and close. Returns the bytes read into `target` (a new buffer when absent).
 */
export function readBeneath(root: string, file: string, target?: Buffer): Buffer {
  const resolved = fs.realpathSync.native(file);
  if (!resolved.startsWith(root + path.sep)) throw new Error(`${file} resolves outside ${root}`);
  const fd = fs.openSync(resolved, 'r');
  try {
    const { size } = fs.fstatSync(fd);
    const into = target ?? Buffer.allocUnsafe(size);
    if (size > into.byteLength) throw new Error(`${file} has ${size} bytes, more than the ${into.byteLength} a lane holds`);
    const read = fs.readSync(fd, into, 0, size, 0);
    return into.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}
