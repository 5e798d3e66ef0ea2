import type { SandboxSys } from './types.js';

/** A bwrap mount instruction and the depth of its destination, used to order parents before children. */
export interface MountOp {
  readonly dest: string;
  readonly args: readonly string[];
}

/** Directories a shell needs besides /etc; merged-/usr systems have some as symlinks into /usr. */
export const SYSTEM_DIRS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

/** Files under /etc replaced by an unreadable /dev/null inside the sandbox. */
export const ETC_SECRET_FILES: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/security/opasswd',
  '/etc/ssh/ssh_host_rsa_key',
  '/etc/ssh/ssh_host_ecdsa_key',
  '/etc/ssh/ssh_host_ed25519_key',
  '/etc/ssh/ssh_host_dsa_key',
];

/** Directories under /etc replaced by an empty read-only tmpfs inside the sandbox. */
export const ETC_SECRET_DIRS: readonly string[] = ['/etc/ssl/private', '/etc/letsencrypt'];

/** The read-only system layout: system dirs (symlinks kept as symlinks), /etc, and the /etc secrets masked. */
export function buildSystemMounts(sys: SandboxSys): MountOp[] {
  const ops: MountOp[] = [];
  for (const dir of SYSTEM_DIRS) {
    const target = sys.readLink(dir);
    if (target !== undefined) ops.push({ dest: dir, args: ['--symlink', target, dir] });
    else if (sys.existing(dir)) ops.push({ dest: dir, args: ['--ro-bind', dir, dir] });
  }
  if (!sys.existing('/etc')) return ops;
  ops.push({ dest: '/etc', args: ['--ro-bind', '/etc', '/etc'] });
  // A symlinked secret is skipped: bwrap would mount on its resolved target, which the layout does not contain.
  for (const file of ETC_SECRET_FILES) {
    if (sys.readLink(file) === undefined && sys.existing(file)) ops.push({ dest: file, args: ['--ro-bind', '/dev/null', file] });
  }
  for (const dir of ETC_SECRET_DIRS) {
    if (sys.readLink(dir) === undefined && sys.existing(dir)) ops.push({ dest: dir, args: ['--tmpfs', dir, '--remount-ro', dir] });
  }
  return ops;
}
