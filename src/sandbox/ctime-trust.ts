/**
 * When an unchanged change time proves a directory unchanged. Creating, removing or renaming an entry sets the
 * directory's ctime (and mtime) to the kernel's current time, and nothing a sandboxed command may do sets a ctime
 * to any other value (that needs the host clock, CAP_SYS_TIME, or the raw device). So a directory read empty at
 * `readAtNs`, whose ctime was then already well in the past, is still empty while its device, inode and ctime are
 * the same: any change since would carry a ctime of at least `readAtNs` minus the clock's granularity.
 *
 * That holds only where the kernel itself keeps the times on a local clock, at a fine granularity; a network
 * filesystem (its server's clock, perhaps skewed or in whole seconds) or FUSE (whatever the daemon says) is not
 * trusted, and its directories are read every time.
 */

/** statfs magic numbers of the local filesystems whose timestamps come from the kernel's clock, in nanoseconds. */
export const KERNEL_TIMESTAMP_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0xef53, 'ext2/3/4'],
  [0x01021994, 'tmpfs'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x794c7630, 'overlayfs'],
  [0xf2f52010, 'f2fs'],
]);

/**
 * How far in the past a ctime must be, when the directory was read, to be trusted: far above any coarse kernel
 * clock granularity (a jiffy, at most 10 ms) and a small step of the host clock. 2 s in nanoseconds.
 */
export const CTIME_TRUST_MARGIN_NS = 2_000_000_000n;

/**
 * Whether a directory read empty at `readAtNs` (wall clock, ns), with change time `ctimeNs`, on a filesystem of
 * statfs type `fsType`, may later be taken as still empty from an unchanged device, inode and ctime alone.
 */
export function mayTrustUnchangedCtime(ctimeNs: bigint, readAtNs: bigint, fsType: number): boolean {
  return KERNEL_TIMESTAMP_FILESYSTEMS.has(fsType) && ctimeNs < readAtNs - CTIME_TRUST_MARGIN_NS;
}
