import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, type Dirent } from 'node:fs';
import { loadLibcIo } from './libc-io.js';

/** What a directory entry is, as the directory listing reports it (`unknown` when the filesystem does not say). */
export type EntryKind = 'file' | 'dir' | 'link' | 'other' | 'unknown';

/** One entry of a directory listing. */
export interface WalkEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

/**
 * The descriptor calls a walk makes. Every open leaves a final link unfollowed (O_NOFOLLOW) and the descriptor
 * close-on-exec, so a command spawned meanwhile inherits no descriptor of a directory it may not reach. Failures
 * return -1 or undefined, never throw: the walk skips what it cannot read.
 */
export interface WalkIo {
  /** Which implementation this is (tests run every rule over each). */
  readonly name: 'libc' | 'node';
  /** Opens the directory at the canonical `path`. */
  openDir(path: string): number;
  /** The entries of the open directory `fd`, without `.` and `..`, in no order. */
  readEntries(fd: number): WalkEntry[] | undefined;
  /** Opens the entry `name` (one segment) of the open directory `dirFd` for reading; O_NONBLOCK, so a FIFO swapped in does not block. */
  openFileAt(dirFd: number, name: string): number;
  /** Opens the file at the canonical `path` for reading, like {@link WalkIo.openFileAt}. */
  openFile(path: string): number;
  /** The size of the open file `fd` when it is a regular file, else -1. */
  regularFileSize(fd: number): number;
  /** Reads up to `length` bytes into `buffer` from `offset`; 0 at the end of the file, -1 on an error. */
  read(fd: number, buffer: Buffer, offset: number, length: number): number;
  close(fd: number): void;
}

// O_NONBLOCK: a FIFO swapped in for a file after the listing does not block the thread.
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * node:fs on a Linux with /proc: entries of a directory descriptor are reached as `/proc/self/fd/<fd>/<name>`, which the
 * kernel resolves like `openat` on that descriptor. libuv opens every descriptor close-on-exec.
 */
export const nodeIo: WalkIo = {
  name: 'node',
  openDir: (path) => tryOpen(path, DIR_FLAGS),
  readEntries(fd) {
    try {
      return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: direntKind(entry) }));
    } catch {
      return undefined;
    }
  },
  openFileAt: (dirFd, name) => tryOpen(`/proc/self/fd/${dirFd}/${name}`, FILE_FLAGS),
  openFile: (path) => tryOpen(path, FILE_FLAGS),
  regularFileSize(fd) {
    try {
      const stats = fstatSync(fd);
      return stats.isFile() ? stats.size : -1;
    } catch {
      return -1;
    }
  },
  read(fd, buffer, offset, length) {
    try {
      return readSync(fd, buffer, offset, Math.min(length, buffer.length - offset), null);
    } catch {
      return -1;
    }
  },
  close(fd) {
    try {
      closeSync(fd);
    } catch {
      // Closing a descriptor this walk opened fails only if it is already closed.
    }
  },
};

function tryOpen(path: string, flags: number): number {
  try {
    return openSync(path, flags);
  } catch {
    return -1;
  }
}

/** The kind of a node:fs directory entry. */
export function direntKind(entry: Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) return 'other';
  return 'unknown';
}

let chosen: WalkIo | undefined;

/**
 * The walk's descriptor calls: libc's own (`openat`, `getdents64`, `statx` through koffi), which resolve one name per
 * open instead of a `/proc/self/fd` path, where koffi loads; else {@link nodeIo}. Chosen on first use, once per thread.
 */
export function defaultWalkIo(): WalkIo {
  chosen ??= loadLibcIo() ?? nodeIo;
  return chosen;
}
