import { closeSync, constants, existsSync, lstatSync, openSync } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { PATH_RULES, PathRefusal } from '../../src/path-guard/index.js';
import { getFdRealPath, verifyDirectory } from './fd-path.js';
import { toFsError } from './fs-error.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

let throughDescriptor: boolean | undefined;

/**
 * Whether `/proc/self/fd/<fd>/<name>` reaches a directory's entries through its descriptor here: Linux with /proc
 * mounted. The kernel then acts as `openat`, `mkdirat`, `renameat`, `unlinkat` would on the descriptor's directory,
 * wherever that directory is now, so no path is resolved again after the check. Elsewhere the directory's path is
 * re-verified right before each call, which leaves a window of a few microseconds (documented in docs/paths.md).
 * Asked on first use, not at import: a process under Node's permission model may import this module unable to look.
 */
export function isThroughDescriptor(): boolean {
  if (throughDescriptor === undefined) {
    try {
      throughDescriptor = process.platform === 'linux' && existsSync('/proc/self/fd');
    } catch {
      throughDescriptor = false;
    }
  }
  return throughDescriptor;
}

/**
 * An open, verified directory. Every entry of it is named through {@link VerifiedDir.entry}; close it when done.
 */
export interface VerifiedDir {
  /** The canonical path the directory had when it was verified. */
  readonly path: string;
  /** Its descriptor (for fsync); undefined on Windows, which cannot open a directory as an fd. */
  readonly fd: number | undefined;
  /**
   * A path naming `name` (one segment) in this directory: `/proc/self/fd/<fd>/<name>` on Linux; elsewhere the joined
   * path, after re-verifying that the directory is still reached without a symlink (BLOCKED_PATH when not).
   */
  entry(name: string): string;
  /** Closes the descriptor; safe to call twice. */
  close(): void;
}

/**
 * Opens the directory `dir` (canonical) without following a final symlink and verifies the descriptor's real path:
 * it must be `dir` itself (`mode: 'exact'`, for writes) or pass `isAllowed` (`mode: 'allowed'`, for reads). Throws
 * BLOCKED_PATH when a component was swapped for a link, NOT_FOUND, CONFLICT when it is a file (not a directory),
 * NOT_READABLE when `isAllowed` refuses the real path.
 */
export function openDirectory(dir: string, mode: 'exact' | 'allowed', isAllowed: (real: string) => boolean = () => true): VerifiedDir {
  if (process.platform === 'win32') {
    verifyDirectory(dir);
    return pathDir(dir, undefined);
  }
  let fd: number;
  try {
    fd = openSync(dir, DIR_FLAGS);
  } catch (error) {
    throw dirOpenError(error, dir);
  }
  try {
    const real = getFdRealPath(fd, dir);
    if (mode === 'exact' && real !== dir) throw swapped(dir, 'reached through a symlink');
    if (!isAllowed(real)) throw new PathRefusal('NOT_READABLE', dir, PATH_RULES.changed('read'));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return isThroughDescriptor() ? fdDir(dir, fd) : pathDir(dir, fd);
}

/**
 * Opens the subdirectory `name` of `parent` through the parent's descriptor (O_NOFOLLOW, so a link swapped in is
 * refused); off Linux by path, verified like {@link openDirectory}. The parent stays open.
 */
export function openChildDirectory(parent: VerifiedDir, name: string): VerifiedDir {
  const child = path.join(parent.path, name);
  if (!isThroughDescriptor()) return openDirectory(child, 'exact');
  let fd: number;
  try {
    fd = openSync(parent.entry(name), DIR_FLAGS);
  } catch (error) {
    throw dirOpenError(error, child, parent.entry(name));
  }
  return fdDir(child, fd);
}

function fdDir(dir: string, fd: number): VerifiedDir {
  let open = true;
  return {
    path: dir,
    fd,
    entry: (name) => `/proc/self/fd/${fd}/${checkName(name, dir)}`,
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function pathDir(dir: string, fd: number | undefined): VerifiedDir {
  let open = fd !== undefined;
  return {
    path: dir,
    fd,
    entry: (name) => {
      checkName(name, dir);
      verifyDirectory(dir);
      return path.join(dir, name);
    },
    close: () => {
      if (open && fd !== undefined) closeSync(fd);
      open = false;
    },
  };
}

// Only single segments may follow a descriptor: `..` or a separator would leave the verified directory.
function checkName(name: string, dir: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0') || (process.platform === 'win32' && name.includes('\\'))) {
    throw new ToolwardenError('INVALID_ARGS', `cannot name ${JSON.stringify(name)} inside ${dir}: not a single path segment`);
  }
  return name;
}

function dirOpenError(error: unknown, dir: string, opened: string = dir): ToolwardenError {
  const code = (error as NodeJS.ErrnoException).code;
  // O_DIRECTORY with O_NOFOLLOW on a symlink fails with ENOTDIR on Linux, ELOOP elsewhere.
  if (code === 'ENOTDIR' || code === 'ELOOP') {
    const stat = lstatQuietly(opened);
    if (stat?.isSymbolicLink() || code === 'ELOOP') return swapped(dir, 'a symlink');
    if (stat !== undefined) return new ToolwardenError('CONFLICT', `${dir} is a file, not a directory`);
  }
  return toFsError(error, 'open directory', dir);
}

function lstatQuietly(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function swapped(dir: string, now: string): ToolwardenError {
  return new PathRefusal('BLOCKED_PATH', dir, PATH_RULES.swapped(now));
}
