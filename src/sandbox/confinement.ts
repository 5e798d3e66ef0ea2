import { buildProcMounts } from './proc-mounts.js';
import type { MountOp } from './system-mounts.js';
import { SECCOMP_FD, type SandboxFeatures, type SandboxSys } from './types.js';

/**
 * The kernel-facing part of every bwrap layout toolwarden builds (commands and isolated tool processes): a private
 * /tmp tmpfs (capped at `tmpBytes` when given), a fresh /proc with its kernel knobs read-only and kernel memory
 * masked (see buildProcMounts), a minimal read-only /dev whose /dev/shm is a tmpfs of its own with the same cap
 * (shm_open writes there), and no /sys (it is never mounted).
 */
export function buildKernelViewMounts(sys: SandboxSys, tmpBytes: number | undefined): MountOp[] {
  return [
    { dest: '/tmp', args: [...tmpfsSize(tmpBytes), '--tmpfs', '/tmp'] },
    { dest: '/proc', args: ['--proc', '/proc'] },
    ...buildProcMounts(sys),
    // Read-only: bwrap's /dev is a tmpfs of the host's default size, writable and kept for a zygote's commands. Its
    // device nodes stay usable (a read-only mount does not stop writes to a device).
    { dest: '/dev', args: ['--dev', '/dev', '--remount-ro', '/dev'] },
    { dest: '/dev/shm', args: [...tmpfsSize(tmpBytes), '--tmpfs', '/dev/shm'] },
  ];
}

/** bwrap's `--size` for the next tmpfs, or nothing when unbounded. */
export function tmpfsSize(bytes: number | undefined): string[] {
  return bytes === undefined ? [] : ['--size', String(bytes)];
}

/**
 * The confinement flags every toolwarden bwrap run gets after its mounts: the root read-only; a user namespace
 * (when `features` say the kernel allows one) with nested ones disabled; new pid, ipc, uts, cgroup and (unless
 * `shareNetwork`) network namespaces; death with the parent; a new session (no TIOCSTI into the host's terminal);
 * every capability dropped; and the seccomp filter on {@link SECCOMP_FD} when `features.seccomp`. bwrap itself always
 * sets no_new_privs.
 */
export function buildConfinementArgs(features: SandboxFeatures, shareNetwork: boolean): string[] {
  return [
    '--remount-ro', '/',
    // Inside its own user namespace root holds capabilities over that namespace only, and --disable-userns stops
    // the process from making a nested one (where it would get them back).
    ...(features.userNamespace === true ? ['--unshare-user', '--disable-userns'] : []),
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    ...(shareNetwork ? [] : ['--unshare-net']),
    '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    ...(features.seccomp === true ? ['--seccomp', String(SECCOMP_FD)] : []),
  ];
}

/** Stable sort by destination depth, so a parent mount never hides a child mounted earlier. */
export function sortParentsFirst(ops: readonly MountOp[]): MountOp[] {
  return ops
    .map((op, index) => ({ op, index, depth: op.dest === '/' ? 0 : op.dest.split('/').length - 1 }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map(({ op }) => op);
}

/** Whether `path` is `root` or below it (both absolute and canonical). */
export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
}
