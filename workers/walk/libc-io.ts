import { constants } from 'node:fs';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import type { EntryKind, WalkEntry, WalkIo } from './walk-io.js';

// Linux's O_CLOEXEC on the architectures listed (alpha, parisc and sparc differ; Node runs on none of them). Only
// little-endian ones: the structures below are read that way.
const O_CLOEXEC = 0o2000000;
const ARCHES: ReadonlySet<string> = new Set(['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'riscv64', 'loong64']);
const AT_FDCWD = -100;
const AT_EMPTY_PATH = 0x1000;
const STATX_TYPE = 0x1;
const STATX_SIZE = 0x200;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const EINTR = 4;
// Offsets in struct statx and struct linux_dirent64, the same on every architecture.
const STATX_MASK_AT = 0;
const STATX_MODE_AT = 28;
const STATX_SIZE_AT = 40;
const DIRENT_RECLEN_AT = 16;
const DIRENT_TYPE_AT = 18;
const DIRENT_NAME_AT = 19;
const DT_KINDS: Readonly<Record<number, EntryKind>> = { 0: 'unknown', 4: 'dir', 8: 'file', 10: 'link' };

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | O_CLOEXEC;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | O_CLOEXEC;

type Koffi = typeof import('koffi');

/**
 * The walk's descriptor calls through libc (koffi, an optional dependency): `openat` on a directory descriptor resolves
 * one name, where node:fs can only name the entry as `/proc/self/fd/<fd>/<name>` and the kernel walks /proc first.
 * Undefined off little-endian Linux on an architecture listed, or when koffi, a libc symbol, or a first listing and
 * statx of `/` fails (an old kernel, a seccomp filter): the caller then uses node:fs. Each thread loads its own;
 * buffers are per thread, and a walk is synchronous, so none is shared.
 */
export function loadLibcIo(): WalkIo | undefined {
  if (process.platform !== 'linux' || endianness() !== 'LE' || !ARCHES.has(process.arch)) return undefined;
  try {
    return bindLibc(createRequire(import.meta.url)('koffi') as Koffi);
  } catch {
    return undefined;
  }
}

function bindLibc(koffi: Koffi): WalkIo | undefined {
  const libc = koffi.load('libc.so.6');
  // openat is variadic in C (the mode of O_CREAT): declared so, the call follows the variadic convention.
  const openat = libc.func('int openat(int, const char *, int, ...)') as (dirFd: number, name: string, flags: number, modeType: 'int', mode: number) => number;
  const getdents64 = libc.func('long getdents64(int, void *, size_t)') as (fd: number, buffer: Buffer, size: number) => number;
  const statx = libc.func('int statx(int, const char *, int, unsigned int, void *)') as (dirFd: number, path: string, flags: number, mask: number, buffer: Buffer) => number;
  const read = libc.func('long read(int, void *, size_t)') as (fd: number, buffer: Buffer, size: number) => number;
  const close = libc.func('int close(int)') as (fd: number) => number;
  const direntBuffer = Buffer.allocUnsafe(32 * 1024);
  const statxBuffer = Buffer.alloc(256);

  // Each call is retried when a signal interrupted it (EINTR), as libuv does; written out, not wrapped in a closure per call.
  const interrupted = (result: number): boolean => result < 0 && koffi.errno() === EINTR;
  const open = (dirFd: number, name: string, flags: number): number => {
    let fd = openat(dirFd, name, flags, 'int', 0);
    while (interrupted(fd)) fd = openat(dirFd, name, flags, 'int', 0);
    return fd;
  };
  // The file type bits of the open `fd`, and its size; undefined when statx fails or does not report both.
  const statOpen = (fd: number): { type: number; size: number } | undefined => {
    if (statx(fd, '', AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE, statxBuffer) !== 0) return undefined;
    if ((statxBuffer.readUInt32LE(STATX_MASK_AT) & (STATX_TYPE | STATX_SIZE)) !== (STATX_TYPE | STATX_SIZE)) return undefined;
    return { type: statxBuffer.readUInt16LE(STATX_MODE_AT) & S_IFMT, size: Number(statxBuffer.readBigUInt64LE(STATX_SIZE_AT)) };
  };

  const io: WalkIo = {
    name: 'libc',
    openDir: (path) => open(AT_FDCWD, path, DIR_FLAGS),
    readEntries(fd) {
      const entries: WalkEntry[] = [];
      for (;;) {
        let filled = getdents64(fd, direntBuffer, direntBuffer.length);
        while (interrupted(filled)) filled = getdents64(fd, direntBuffer, direntBuffer.length);
        if (filled === 0) return entries;
        if (filled < 0 || !readDirents(direntBuffer, filled, entries)) return undefined;
      }
    },
    openFileAt: (dirFd, name) => open(dirFd, name, FILE_FLAGS),
    openFile: (path) => open(AT_FDCWD, path, FILE_FLAGS),
    regularFileSize(fd) {
      const stat = statOpen(fd);
      return stat?.type === S_IFREG ? stat.size : -1;
    },
    read(fd, buffer, offset, length) {
      // The kernel writes where it is told: never more than the buffer holds past `offset`.
      const into = buffer.subarray(offset, offset + length);
      if (into.length === 0) return 0;
      let count = read(fd, into, into.length);
      while (interrupted(count)) count = read(fd, into, into.length);
      return count;
    },
    close(fd) {
      close(fd);
    },
  };

  const root = io.openDir('/');
  if (root < 0) return undefined;
  try {
    return io.readEntries(root) !== undefined && statOpen(root)?.type === S_IFDIR ? io : undefined;
  } finally {
    io.close(root);
  }
}

// Appends the records of a getdents64 result; false when one is malformed (which the kernel never writes).
function readDirents(buffer: Buffer, filled: number, entries: WalkEntry[]): boolean {
  for (let at = 0; at < filled; ) {
    const length = buffer.readUInt16LE(at + DIRENT_RECLEN_AT);
    const nameEnd = buffer.indexOf(0, at + DIRENT_NAME_AT);
    if (length === 0 || nameEnd === -1 || nameEnd >= at + length) return false;
    const name = buffer.toString('utf8', at + DIRENT_NAME_AT, nameEnd);
    if (name !== '.' && name !== '..') entries.push({ name, kind: DT_KINDS[buffer[at + DIRENT_TYPE_AT] ?? 0] ?? 'other' });
    at += length;
  }
  return true;
}
