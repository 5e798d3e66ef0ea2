import { closeSync, constants, fstatSync, openSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';

const SYS_OPENAT2 = 437;
const AT_FDCWD = -100;
const ENOSYS = 38;
const RESOLVE_NO_MAGICLINKS = 0x02;
const RESOLVE_NO_SYMLINKS = 0x04;
const RESOLVE_BENEATH = 0x08;
const O_CLOEXEC = 0o2000000;
const O_PATH = 0o10000000;
const OPEN_HOW_SIZE = 24;
/** Root descriptors kept open at most (tenants' workspaces come and go); the least recently used is closed first. */
const MAX_ROOTS = 256;

type OpenAt2 = (nr: number, dirfd: number, path: string, how: Buffer, size: number) => number | bigint;

/**
 * Opens a regular file beneath a root directory with one system call, where the kernel has openat2(2) (Linux 5.6+)
 * and the optional koffi loads: RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS from the root's
 * descriptor. When it succeeds, no link was followed and the file is beneath the root, so the path made of the root
 * and `relative` is the file's real path: the guard's lstat walk and the descriptor's /proc/self/fd readlink add
 * nothing. It answers undefined for everything else (a link on the way, a '..' that climbs out, a missing file, not a
 * regular file, no openat2), and the caller takes its full path, which decides those the slow way with the same
 * refusals. So it can only make a read faster, never let one through that the full path would refuse.
 */
export class BeneathOpener {
  readonly #openat2: OpenAt2;
  /** `struct open_how` for reads: O_RDONLY | O_NONBLOCK | O_CLOEXEC, mode 0, the resolve flags above. */
  readonly #readHow: Buffer;
  /** Root path to an O_PATH descriptor of it and the inode it was, verified when opened; least recently used first. */
  readonly #roots = new Map<string, { fd: number; dev: number; ino: number }>();

  /** @internal use {@link BeneathOpener.get} */
  constructor(openat2: OpenAt2) {
    this.#openat2 = openat2;
    this.#readHow = Buffer.alloc(OPEN_HOW_SIZE);
    this.#readHow.writeBigUInt64LE(BigInt(constants.O_RDONLY | constants.O_NONBLOCK | O_CLOEXEC), 0);
    this.#readHow.writeBigUInt64LE(BigInt(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS), 16);
  }

  /** The process's opener, or undefined where openat2 cannot be called (not Linux, koffi missing, an old kernel). */
  static get(): BeneathOpener | undefined {
    if (opener === null) opener = load();
    return opener;
  }

  /**
   * Opens `relative` (normalized, non-empty, no leading '/') beneath canonical directory `root` for reading, with its
   * stat; undefined when the kernel would not (see the class) or it is not a regular file. The caller closes `fd`.
   */
  openFile(root: string, relative: string): { fd: number; stat: Stats } | undefined {
    const rootFd = this.#rootFd(root);
    if (rootFd === undefined) return undefined;
    const fd = Number(this.#openat2(SYS_OPENAT2, rootFd, relative, this.#readHow, OPEN_HOW_SIZE));
    if (fd < 0) return undefined;
    try {
      const stat = fstatSync(fd);
      if (stat.isFile()) return { fd, stat };
    } catch {
      // fstat on a descriptor just opened does not fail; should it, the full path decides.
    }
    closeSync(fd);
    return undefined;
  }

  /**
   * A descriptor of `root`, opened without following a link and proven to be `root` itself (its /proc/self/fd). A
   * cached one is used only while `root` still names the same directory: a root renamed away and replaced (by a link
   * out, say) is not read through the old descriptor, so the full path refuses what it must, as it always did.
   */
  #rootFd(root: string): number | undefined {
    const cached = this.#roots.get(root);
    if (cached !== undefined) {
      const now = statSync(root, { throwIfNoEntry: false });
      this.#roots.delete(root);
      if (now !== undefined && now.dev === cached.dev && now.ino === cached.ino) {
        this.#roots.set(root, cached);
        return cached.fd;
      }
      closeSync(cached.fd);
    }
    let fd: number;
    try {
      fd = openSync(root, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW | O_CLOEXEC);
    } catch {
      return undefined;
    }
    let real: string | undefined;
    let stat: Stats | undefined;
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
      stat = fstatSync(fd);
    } catch {
      real = undefined;
    }
    if (real !== root || stat === undefined) {
      closeSync(fd);
      return undefined;
    }
    this.#roots.set(root, { fd, dev: stat.dev, ino: stat.ino });
    if (this.#roots.size > MAX_ROOTS) {
      const [oldest, old] = this.#roots.entries().next().value as [string, { fd: number }];
      this.#roots.delete(oldest);
      closeSync(old.fd);
    }
    return fd;
  }
}

/** Not tried yet: null; tried: the opener or undefined. */
let opener: BeneathOpener | undefined | null = null;

function load(): BeneathOpener | undefined {
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi').default;
    const openat2 = koffi.load('libc.so.6').func('long syscall(long nr, int dirfd, const char *path, void *how, size_t size)') as OpenAt2;
    // A kernel without openat2 (or a seccomp filter refusing it) answers ENOSYS to every call: find out once, by
    // opening the working directory.
    const how = Buffer.alloc(OPEN_HOW_SIZE);
    how.writeBigUInt64LE(BigInt(constants.O_RDONLY | O_CLOEXEC), 0);
    const fd = Number(openat2(SYS_OPENAT2, AT_FDCWD, '.', how, OPEN_HOW_SIZE));
    if (fd >= 0) closeSync(fd);
    else if (koffi.errno() === ENOSYS) return undefined;
    return new BeneathOpener(openat2);
  } catch {
    return undefined;
  }
}
