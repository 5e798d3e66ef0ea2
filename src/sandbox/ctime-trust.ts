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
 * How far in the past a ctime must be, when the directory was read, to be trusted, when it has a sub-second part:
 * that inode keeps nanosecond times, so any later change differs unless it falls in the same tick of the kernel's
 * coarse clock (a jiffy, at most 10 ms). 100 ms in nanoseconds.
 */
export const CTIME_TRUST_MARGIN_NS = 100_000_000n;

/**
 * The same for a ctime of whole seconds: that inode may keep only seconds (ext4 with 128-byte inodes does), so a
 * change in the same second would keep it. 2 s in nanoseconds.
 */
export const WHOLE_SECOND_CTIME_TRUST_MARGIN_NS = 2_000_000_000n;

/**
 * Whether a directory read empty at `readAtNs` (wall clock, ns), with change time `ctimeNs`, on a filesystem of
 * statfs type `fsType`, may later be taken as still empty from an unchanged device, inode and ctime alone.
 */
export function mayTrustUnchangedCtime(ctimeNs: bigint, readAtNs: bigint, fsType: number): boolean {
  const margin = ctimeNs % 1_000_000_000n === 0n ? WHOLE_SECOND_CTIME_TRUST_MARGIN_NS : CTIME_TRUST_MARGIN_NS;
  return KERNEL_TIMESTAMP_FILESYSTEMS.has(fsType) && ctimeNs < readAtNs - margin;
}
