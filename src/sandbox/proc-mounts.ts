import type { MountOp } from './system-mounts.js';
import type { SandboxSys } from './types.js';

/**
 * Kernel knobs under the sandbox's /proc bound read-only over themselves: a host root outside a user namespace
 * can write /proc/sys without any capability (sysctl checks the uid, not a capability), and
 * /proc/sys/kernel/core_pattern starting with `|` makes the kernel run a program as host root.
 */
export const PROC_READ_ONLY: readonly string[] = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/fs'];

/** Files under /proc replaced by /dev/null: kernel memory, the kernel log and kernel addresses. */
export const PROC_MASKED_FILES: readonly string[] = ['/proc/kcore', '/proc/kmsg', '/proc/kallsyms', '/proc/keys', '/proc/timer_list', '/proc/sched_debug', '/proc/latency_stats'];

/** Directories under /proc replaced by an empty read-only tmpfs (device and firmware interfaces). */
export const PROC_MASKED_DIRS: readonly string[] = ['/proc/acpi', '/proc/scsi', '/proc/asound'];

/**
 * The /proc entry of bwrap's init (pid 1 in the sandbox's pid namespace), replaced like a masked directory: it runs
 * as the command's user and is dumpable, so through /proc/1/mem a command could rewrite it, and in a session
 * zygote's sandbox it holds none of the per-command rlimits. Commands never need it; `ps` skips an empty entry.
 */
export const PROC_SANDBOX_INIT = '/proc/1';

/**
 * The mounts over the sandbox's fresh /proc. The sources are the host's own entries: they show the same kernel
 * knobs, and a knob that does not exist on this host is skipped.
 */
export function buildProcMounts(sys: SandboxSys): MountOp[] {
  return [
    ...PROC_READ_ONLY.filter((p) => sys.existing(p)).map((p) => ({ dest: p, args: ['--ro-bind', p, p] })),
    ...PROC_MASKED_FILES.filter((p) => sys.existing(p)).map((p) => ({ dest: p, args: ['--ro-bind', '/dev/null', p] })),
    ...[...PROC_MASKED_DIRS, PROC_SANDBOX_INIT].filter((p) => sys.existing(p)).map((p) => ({ dest: p, args: ['--tmpfs', p, '--remount-ro', p] })),
  ];
}
