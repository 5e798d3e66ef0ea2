/** One line of `/proc/<pid>/mountinfo`, its paths with the kernel's octal escapes decoded. */
export interface MountLine {
  /** The mount's root within its filesystem (a cgroup hierarchy's path for a cgroup mount). */
  readonly root: string;
  readonly mountPoint: string;
  readonly fstype: string;
  readonly superOptions: string;
}

/** The mounts of a mountinfo text; malformed lines are left out. */
export function parseMountinfo(text: string): MountLine[] {
  return text.split('\n').map(parseMountLine).filter((mount) => mount !== undefined);
}

// id parent major:minor root mount-point options [optional fields...] - fstype source super-options
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

// mountinfo escapes space, tab, newline and backslash as octal.
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_all, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}
