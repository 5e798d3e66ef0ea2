import { posix } from 'node:path';
import { parseMountinfo, type MountLine } from './mountinfo.js';

/**
 * Why cgroups: two per-command rlimits leak. RLIMIT_NPROC does not bind the host's root (the kernel skips the check
 * for real uid 0, and a sandbox keeps the caller's uid outside, user namespace or not), so as root a command can
 * fork without bound; RLIMIT_DATA does not count shared mappings (`MAP_SHARED|MAP_ANONYMOUS`, memfd), so any
 * command can take memory past it. A cgroup's `pids.max` and memory limit bind everyone: where this process may
 * make them, each session's sandboxes join its own.
 */

/** A cgroup controller the sandbox uses. */
export type CgroupController = 'pids' | 'memory';

/** Where this process's own cgroup of a controller is, so a child cgroup can be made below it. */
export interface CgroupHome {
  readonly version: 1 | 2;
  /** The directory of this process's cgroup in the mounted hierarchy. */
  readonly dir: string;
}

/**
 * This process's cgroup directory for `controller` from `/proc/self/cgroup` and `/proc/self/mountinfo`: the v1
 * hierarchy that has the controller, else the v2 one (whether the controller is delegated there is for the caller to
 * read); undefined when neither is mounted where this process can see its own cgroup.
 */
export function findCgroupHome(controller: CgroupController, procSelfCgroup: string, mountinfo: string): CgroupHome | undefined {
  const memberships = procSelfCgroup.split('\n').map((line) => /^(\d+):([^:]*):(.*)$/.exec(line)).filter((m) => m !== null);
  const mounts = parseMountinfo(mountinfo);
  const v1 = memberships.find((m) => m[2]?.split(',').includes(controller));
  if (v1 !== undefined) {
    const mount = mounts.find((m) => m.fstype === 'cgroup' && m.superOptions.split(',').includes(controller));
    const dir = mount === undefined ? undefined : below(mount, v1[3] ?? '');
    if (dir !== undefined) return { version: 1, dir };
  }
  const v2 = memberships.find((m) => m[1] === '0' && m[2] === '');
  const mount = mounts.find((m) => m.fstype === 'cgroup2');
  const dir = v2 === undefined || mount === undefined ? undefined : below(mount, v2[3] ?? '');
  return dir === undefined ? undefined : { version: 2, dir };
}

/**
 * `argv` run by a /bin/sh that first moves itself into each cgroup whose `cgroup.procs` is in `procsFiles`, so bwrap
 * and everything it starts is counted there from its first fork; if a move fails nothing runs (exit status 125).
 * No quoting involved.
 */
export function joinCgroupsArgv(procsFiles: readonly string[], argv: readonly string[]): string[] {
  const script = 'n=$0; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';
  return ['/bin/sh', '-c', script, String(procsFiles.length), ...procsFiles, ...argv];
}

/** Room in a session's memory cgroup for the sandbox itself (bwrap, the zygote's Node, the egress forwarder). */
export const SANDBOX_MEMORY_ALLOWANCE_BYTES = 256 * 1024 * 1024;

/**
 * A session's memory cap: one command's memory, its /tmp, /dev/shm and HOME tmpfs (their pages count against the
 * writer's cgroup) and the sandbox's own processes. Its sandboxes together stay under it, however they map memory.
 */
export function sessionMemoryCap(limits: { readonly commandMemoryBytes: number; readonly sandboxTmpBytes: number }): number {
  return limits.commandMemoryBytes + 3 * limits.sandboxTmpBytes + SANDBOX_MEMORY_ALLOWANCE_BYTES;
}

/** The OOM kills a memory cgroup counted: the `oom_kill` line of v1's memory.oom_control or v2's memory.events. */
export function parseOomKills(text: string): number | undefined {
  const match = /^oom_kill (\d+)$/m.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

// The cgroup path seen in /proc/self/cgroup, under a mount of that hierarchy's `root`; undefined when outside it.
function below(mount: MountLine, cgroupPath: string): string | undefined {
  if (!cgroupPath.startsWith('/')) return undefined;
  const rest = mount.root === '/' ? cgroupPath : cgroupPath === mount.root || cgroupPath.startsWith(`${mount.root}/`) ? cgroupPath.slice(mount.root.length) : undefined;
  if (rest === undefined) return undefined;
  const dir = posix.join(mount.mountPoint, rest);
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}
