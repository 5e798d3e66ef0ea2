import { posix } from 'node:path';

/**
 * Why a pids cgroup: RLIMIT_NPROC does not bind the host's root. The kernel skips the check for real uid 0 (and
 * a sandbox keeps the caller's uid outside, user namespace or not), so as root a command can fork without bound.
 * A cgroup's `pids.max` binds everyone; where this process may make one, each session's sandboxes join theirs.
 */

/** Where this process's own pids cgroup is, so a child cgroup can be made below it. */
export interface PidsCgroupHome {
  readonly version: 1 | 2;
  /** The directory of this process's pids cgroup in the mounted hierarchy. */
  readonly dir: string;
}

/**
 * This process's pids cgroup directory from `/proc/self/cgroup` and `/proc/self/mountinfo`: the v1 hierarchy that
 * has the pids controller, else the v2 one (whether pids is delegated there is for the caller to read); undefined
 * when neither is mounted where this process can see its own cgroup.
 */
export function findPidsCgroupHome(procSelfCgroup: string, mountinfo: string): PidsCgroupHome | undefined {
  const memberships = procSelfCgroup.split('\n').map((line) => /^(\d+):([^:]*):(.*)$/.exec(line)).filter((m) => m !== null);
  const mounts = mountinfo.split('\n').map(parseMountLine).filter((m) => m !== undefined);
  const v1 = memberships.find((m) => m[2]?.split(',').includes('pids'));
  if (v1 !== undefined) {
    const mount = mounts.find((m) => m.fstype === 'cgroup' && m.superOptions.split(',').includes('pids'));
    const dir = mount === undefined ? undefined : below(mount, v1[3] ?? '');
    if (dir !== undefined) return { version: 1, dir };
  }
  const v2 = memberships.find((m) => m[1] === '0' && m[2] === '');
  const mount = mounts.find((m) => m.fstype === 'cgroup2');
  const dir = v2 === undefined || mount === undefined ? undefined : below(mount, v2[3] ?? '');
  return dir === undefined ? undefined : { version: 2, dir };
}

/**
 * `argv` run by a /bin/sh that first moves itself into the cgroup whose `cgroup.procs` is `procsFile`, so bwrap
 * and everything it starts is counted there from its first fork; if the move fails nothing runs (exit status of
 * the failed write). No quoting involved.
 */
export function joinPidsCgroupArgv(procsFile: string, argv: readonly string[]): string[] {
  return ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', procsFile, ...argv];
}

interface MountLine {
  readonly root: string;
  readonly mountPoint: string;
  readonly fstype: string;
  readonly superOptions: string;
}

// mountinfo: id parent major:minor root mount-point options [optional fields...] - fstype source super-options
function parseMountLine(line: string): MountLine | undefined {
  const [left, right] = line.split(' - ');
  if (left === undefined || right === undefined) return undefined;
  const fields = left.split(' ');
  const [fstype, , superOptions] = right.split(' ');
  const root = fields[3];
  const mountPoint = fields[4];
  if (root === undefined || mountPoint === undefined || fstype === undefined || superOptions === undefined) return undefined;
  return { root: unescapeMountPath(root), mountPoint: unescapeMountPath(mountPoint), fstype, superOptions };
}

// The cgroup path seen in /proc/self/cgroup, under a mount of that hierarchy's `root`; undefined when outside it.
function below(mount: MountLine, cgroupPath: string): string | undefined {
  if (!cgroupPath.startsWith('/')) return undefined;
  const rest = mount.root === '/' ? cgroupPath : cgroupPath === mount.root || cgroupPath.startsWith(`${mount.root}/`) ? cgroupPath.slice(mount.root.length) : undefined;
  if (rest === undefined) return undefined;
  const dir = posix.join(mount.mountPoint, rest);
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

// mountinfo escapes space, tab, newline and backslash as octal.
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_all, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}
