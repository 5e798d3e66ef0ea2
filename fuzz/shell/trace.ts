import path from 'node:path';

/** What a syscall did to a path: read data, read metadata only, write (create, change, remove), or execute. */
export type TouchKind = 'read' | 'meta' | 'write' | 'exec';

/** One successful path-touching syscall from an strace log. */
export interface Touch {
  pid: number;
  syscall: string;
  kind: TouchKind;
  /** Absolute, as the process named it (dirfd or cwd joined, not yet link-resolved). */
  path: string;
  /** True when the kernel already resolved every link (the path of an opened descriptor). */
  resolved: boolean;
  /** Whether the syscall follows a link in the last component. */
  follow: boolean;
  line: string;
}

interface PathArg {
  /** Index of the dirfd argument, or -1 for the process's cwd. */
  dirfd: number;
  path: number;
  kind: TouchKind | 'flags';
  follow: boolean | 'flags';
}

// For each syscall: which arguments name a path and how it is touched. `flags` reads the mode from the flags
// argument (open) or AT_SYMLINK_NOFOLLOW (the *at calls).
const SPECS: Readonly<Record<string, readonly PathArg[]>> = {
  open: [{ dirfd: -1, path: 0, kind: 'flags', follow: true }],
  openat: [{ dirfd: 0, path: 1, kind: 'flags', follow: true }],
  openat2: [{ dirfd: 0, path: 1, kind: 'flags', follow: true }],
  creat: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  stat: [{ dirfd: -1, path: 0, kind: 'meta', follow: true }],
  lstat: [{ dirfd: -1, path: 0, kind: 'meta', follow: false }],
  newfstatat: [{ dirfd: 0, path: 1, kind: 'meta', follow: 'flags' }],
  statx: [{ dirfd: 0, path: 1, kind: 'meta', follow: 'flags' }],
  access: [{ dirfd: -1, path: 0, kind: 'meta', follow: true }],
  faccessat: [{ dirfd: 0, path: 1, kind: 'meta', follow: true }],
  faccessat2: [{ dirfd: 0, path: 1, kind: 'meta', follow: 'flags' }],
  readlink: [{ dirfd: -1, path: 0, kind: 'meta', follow: false }],
  readlinkat: [{ dirfd: 0, path: 1, kind: 'meta', follow: false }],
  statfs: [{ dirfd: -1, path: 0, kind: 'meta', follow: true }],
  getxattr: [{ dirfd: -1, path: 0, kind: 'meta', follow: true }],
  lgetxattr: [{ dirfd: -1, path: 0, kind: 'meta', follow: false }],
  listxattr: [{ dirfd: -1, path: 0, kind: 'meta', follow: true }],
  llistxattr: [{ dirfd: -1, path: 0, kind: 'meta', follow: false }],
  chdir: [{ dirfd: -1, path: 0, kind: 'meta', follow: true }],
  execve: [{ dirfd: -1, path: 0, kind: 'exec', follow: true }],
  execveat: [{ dirfd: 0, path: 1, kind: 'exec', follow: 'flags' }],
  mkdir: [{ dirfd: -1, path: 0, kind: 'write', follow: false }],
  mkdirat: [{ dirfd: 0, path: 1, kind: 'write', follow: false }],
  rmdir: [{ dirfd: -1, path: 0, kind: 'write', follow: false }],
  unlink: [{ dirfd: -1, path: 0, kind: 'write', follow: false }],
  unlinkat: [{ dirfd: 0, path: 1, kind: 'write', follow: false }],
  rename: [{ dirfd: -1, path: 0, kind: 'write', follow: false }, { dirfd: -1, path: 1, kind: 'write', follow: false }],
  renameat: [{ dirfd: 0, path: 1, kind: 'write', follow: false }, { dirfd: 2, path: 3, kind: 'write', follow: false }],
  renameat2: [{ dirfd: 0, path: 1, kind: 'write', follow: false }, { dirfd: 2, path: 3, kind: 'write', follow: false }],
  // A hard link to a file makes it writable through the new name, so the source counts as written.
  link: [{ dirfd: -1, path: 0, kind: 'write', follow: false }, { dirfd: -1, path: 1, kind: 'write', follow: false }],
  linkat: [{ dirfd: 0, path: 1, kind: 'write', follow: 'flags' }, { dirfd: 2, path: 3, kind: 'write', follow: false }],
  symlink: [{ dirfd: -1, path: 1, kind: 'write', follow: false }],
  symlinkat: [{ dirfd: 1, path: 2, kind: 'write', follow: false }],
  chmod: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  fchmodat: [{ dirfd: 0, path: 1, kind: 'write', follow: true }],
  chown: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  lchown: [{ dirfd: -1, path: 0, kind: 'write', follow: false }],
  fchownat: [{ dirfd: 0, path: 1, kind: 'write', follow: 'flags' }],
  truncate: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  utime: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  utimes: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  utimensat: [{ dirfd: 0, path: 1, kind: 'write', follow: 'flags' }],
  futimesat: [{ dirfd: 0, path: 1, kind: 'write', follow: true }],
  mknod: [{ dirfd: -1, path: 0, kind: 'write', follow: false }],
  mknodat: [{ dirfd: 0, path: 1, kind: 'write', follow: false }],
  setxattr: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  removexattr: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  chroot: [{ dirfd: -1, path: 0, kind: 'write', follow: true }],
  mount: [{ dirfd: -1, path: 1, kind: 'write', follow: true }],
  inotify_add_watch: [{ dirfd: -1, path: 1, kind: 'meta', follow: true }],
};
// Syscalls on a descriptor: the descriptor's path (strace -y) is the file, already resolved by the kernel.
const FD_SPECS: Readonly<Record<string, TouchKind>> = { fchmod: 'write', fchown: 'write', ftruncate: 'write', fchdir: 'meta', fsetxattr: 'write', fremovexattr: 'write' };

const LINE = /^(\d+)\s+(.*)$/;
const CALL = /^([a-z0-9_]+)\((.*)\)\s+=\s+(.*)$/s;

/**
 * Parses an `strace -f -y -o FILE` log into the successful syscalls that touched a path, joining
 * `<unfinished ...>` halves and resolving relative paths against the dirfd or the process's cwd
 * (which `-y` prints as `AT_FDCWD</dir>`; old non-*at calls use the cwd tracked through clone and chdir).
 */
export function parseTrace(log: string, initialCwd: string): Touch[] {
  const pending = new Map<number, string>();
  const cwd = new Map<number, string>();
  const touches: Touch[] = [];
  let first = true;
  for (const raw of log.split('\n')) {
    const m = LINE.exec(raw);
    if (!m) continue;
    const pid = Number(m[1]);
    let body = m[2] as string;
    if (first) {
      cwd.set(pid, initialCwd);
      first = false;
    }
    if (body.endsWith('<unfinished ...>')) {
      pending.set(pid, body.slice(0, -'<unfinished ...>'.length).trimEnd());
      continue;
    }
    const resumed = /^<\.\.\. [a-z0-9_]+ resumed>\s?(.*)$/s.exec(body);
    if (resumed) {
      const head = pending.get(pid);
      pending.delete(pid);
      if (head === undefined) continue;
      body = joinResumed(head, resumed[1] as string);
    }
    const call = CALL.exec(body);
    if (!call) continue;
    const [, name, argText, ret] = call as unknown as [string, string, string, string];
    if (!cwd.has(pid)) cwd.set(pid, initialCwd);
    const args = splitArgs(argText);
    for (const a of args) {
      const fdcwd = /^AT_FDCWD<(.*)>$/.exec(a);
      if (fdcwd) cwd.set(pid, decodeFdPath(fdcwd[1] as string));
    }
    const here = cwd.get(pid) as string;
    if (/^(clone|clone3|fork|vfork)$/.test(name) && /^\d+/.test(ret)) {
      cwd.set(Number(/^\d+/.exec(ret)?.[0]), here);
      continue;
    }
    if (ret.startsWith('-1') || ret.startsWith('?')) continue;
    touches.push(...touchesOf(pid, name, args, ret, here, raw));
    if (name === 'chdir' && args[0] !== undefined) cwd.set(pid, path.resolve(here, decodeString(args[0]) ?? '.'));
    if (name === 'fchdir' && args[0] !== undefined) {
      const fd = fdPath(args[0]);
      if (fd !== null) cwd.set(pid, fd);
    }
  }
  return touches;
}

function touchesOf(pid: number, name: string, args: string[], ret: string, cwd: string, line: string): Touch[] {
  const fdKind = FD_SPECS[name];
  if (fdKind !== undefined) {
    const p = args[0] === undefined ? null : fdPath(args[0]);
    return p === null ? [] : [{ pid, syscall: name, kind: fdKind, path: p, resolved: true, follow: true, line }];
  }
  const specs = SPECS[name];
  if (specs === undefined) return [];
  const out: Touch[] = [];
  for (const spec of specs) {
    const rawPath = args[spec.path];
    if (rawPath === undefined) continue;
    const named = decodeString(rawPath);
    if (named === null) continue;
    const flagsText = args.slice(spec.path + 1).join(',');
    const kind: TouchKind = spec.kind === 'flags' ? openKind(flagsText) : spec.kind;
    const follow = spec.follow === 'flags' ? !/AT_SYMLINK_NOFOLLOW/.test(flagsText) && !/AT_EMPTY_PATH/.test(flagsText) : spec.follow;
    const base = spec.dirfd < 0 ? cwd : (fdPath(args[spec.dirfd] ?? '') ?? cwd);
    if (named === '' && /AT_EMPTY_PATH/.test(flagsText)) {
      // A call on the descriptor itself (fstatat(fd, "", AT_EMPTY_PATH)): the descriptor's resolved path, if a file.
      const fd = fdPath(args[spec.dirfd] ?? '');
      if (fd !== null) out.push({ pid, syscall: name, kind, path: fd, resolved: true, follow: true, line });
      continue;
    }
    const opened = spec.kind === 'flags' ? fdPath(ret) : null;
    if (opened !== null) out.push({ pid, syscall: name, kind, path: opened, resolved: true, follow, line });
    else out.push({ pid, syscall: name, kind, path: path.resolve(base, named), resolved: false, follow, line });
  }
  return out;
}

function openKind(flags: string): TouchKind {
  if (/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE/.test(flags)) return 'write';
  if (/O_PATH/.test(flags)) return 'meta';
  return 'read';
}

// strace prints `openat(...) = 3</x>` on the resume half and the call's start on the unfinished half.
function joinResumed(head: string, tail: string): string {
  if (tail.startsWith(')') || tail.startsWith(',')) return `${head}${tail}`;
  return `${head}, ${tail}`;
}

/** Splits the top-level arguments of a syscall, keeping quoted strings, arrays, structs and `fd<path>` whole. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  let inString = false;
  let inAngle = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      cur += c;
      if (c === '\\') cur += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (inAngle) {
      cur += c;
      if (c === '\\') cur += text[++i] ?? '';
      else if (c === '>') inAngle = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '<' && /(\d|AT_FDCWD)$/.test(cur)) inAngle = true;
    else if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/** The value of a quoted strace string argument (`"a\"b"...` decodes; a truncated `"..."...` is kept as is). */
export function decodeString(arg: string): string | null {
  const m = /^"((?:[^"\\]|\\.)*)"(\.\.\.)?$/s.exec(arg);
  if (!m) return null;
  return unescape(m[1] as string);
}

/** The path strace -y printed for a descriptor (`3</a/b>`, `AT_FDCWD</a>`), or null. */
export function fdPath(arg: string): string | null {
  const m = /^(?:\d+|AT_FDCWD)<(\/.*)>$/s.exec(arg.trim());
  // Only a file has a path: sockets and pipes print as `socket:[123]`, `pipe:[9]`.
  return m ? decodeFdPath(m[1] as string) : null;
}

function decodeFdPath(text: string): string {
  // A deleted file ends with " (deleted)".
  return unescape(text.replace(/ \(deleted\)$/, ''));
}

function unescape(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = s[++i] ?? '';
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, '\\': 92 };
    if (n in simple) bytes.push(simple[n] as number);
    else if (n === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i))?.[0] ?? '0';
      bytes.push(parseInt(oct, 8));
      i += oct.length - 1;
    } else bytes.push(...Buffer.from(n, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
