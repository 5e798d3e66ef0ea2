import fs from 'node:fs';
import path from 'node:path';
import { findBlockedEntry } from '../../src/path-guard/index.js';
import type { FixtureLayout } from './fixture.js';
import type { Touch, TouchKind } from './trace.js';

/** The private temp directory the sandboxed shell gets as TMPDIR (heredocs, sort spill files). */
export const SANDBOX_TMPDIR = '/tmp/.tw-tmp';

/**
 * The system read set: what commands read without being asked to (the loader, libraries, locale, their own
 * /proc entries, character devices). Reading here is never an escape. Nothing else of the host is mounted in
 * the sandbox, so a read of anything else that succeeds is of the fixture.
 */
export const SYSTEM_READ: readonly string[] = [
  '/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc/ld.so.cache', '/etc/ld.so.preload', '/etc/alternatives', '/etc/localtime',
  '/proc', '/sys/devices/system/cpu', '/sys/fs/cgroup', '/dev/null', '/dev/zero', '/dev/full', '/dev/urandom', '/dev/random',
  '/dev/tty', '/dev/fd', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/pts', '/dev/ptmx', '/dev/shm', SANDBOX_TMPDIR,
];
/** Where commands may write without being asked to: sinks, their own descriptors, the private TMPDIR. */
export const SYSTEM_WRITE: readonly string[] = [
  '/dev/null', '/dev/zero', '/dev/full', '/dev/tty', '/dev/stdout', '/dev/stderr', '/dev/fd', '/dev/pts', '/proc/self/fd', SANDBOX_TMPDIR,
];
/** Where programs may be executed from: the system's binaries (never the workspace or the fixture). */
export const SYSTEM_EXEC: readonly string[] = ['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/libexec', '/bin', '/sbin', '/lib', '/lib64', '/etc/alternatives'];

/** One touch outside what an allow verdict allowed. */
export interface Violation {
  syscall: string;
  kind: TouchKind;
  /** The path as the process named it. */
  named: string;
  /** The path after resolving links the way the kernel does. */
  resolved: string;
  why: string;
  line: string;
}

const inside = (p: string, root: string): boolean => p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);
const insideAny = (p: string, roots: readonly string[]): boolean => roots.some((r) => inside(p, r));

/**
 * Maps a path inside the sandbox to where the same file is on the host after the run: the fixture's scratch
 * copy for paths under the fixture base, `/usr` as is (it is bound read-only), nothing for the rest (the
 * sandbox's /tmp, /dev and /proc are its own).
 */
export function hostView(layout: FixtureLayout, scratch: string): (p: string) => string | null {
  return (p) => {
    if (inside(p, layout.base)) return path.join(scratch, path.relative(layout.base, p));
    if (inside(p, '/usr') || inside(p, '/etc/alternatives')) return p;
    return null;
  };
}

/** Resolves links in `p` as the kernel would (the last component only when `follow`), using the post-run tree. */
export function resolveLinks(p: string, follow: boolean, view: (p: string) => string | null): string {
  let parts = p.split('/').filter((s) => s !== '');
  let done = '/';
  for (let hops = 0, i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === '.') continue;
    if (part === '..') {
      done = path.dirname(done);
      continue;
    }
    const next = path.join(done, part);
    const last = i === parts.length - 1;
    const host = view(next);
    let target: string | null = null;
    if (host !== null && (!last || follow)) {
      try {
        if (fs.lstatSync(host).isSymbolicLink()) target = fs.readlinkSync(host);
      } catch {
        target = null;
      }
    }
    if (target === null || ++hops > 40) {
      done = next;
      continue;
    }
    const rest = parts.slice(i + 1);
    parts = [...(path.isAbsolute(target) ? target : path.join(done, target)).split('/').filter((s) => s !== ''), ...rest];
    done = '/';
    i = -1;
  }
  return done;
}

/**
 * Checks each touch of an allowed command against the verdict: reads in the workspace, read roots and the
 * system read set; metadata also on the workspace's ancestors; writes in the workspace (never a blocklisted
 * path) and the system write set; executions only of system programs.
 */
export function findViolations(touches: readonly Touch[], layout: FixtureLayout, view: (p: string) => string | null): Violation[] {
  const out: Violation[] = [];
  const readable = [layout.ws, layout.ro, ...SYSTEM_READ];
  for (const t of touches) {
    const resolved = t.resolved ? t.path : resolveLinks(t.path, t.follow, view);
    // Opening `/` or an ancestor of the workspace without O_DIRECTORY (xargs, gnulib's save_cwd) lists nothing.
    const kind = t.kind === 'read' && (resolved === '/' || inside(layout.ws, resolved)) && !t.line.includes('O_DIRECTORY') ? 'meta' : t.kind;
    const why = judge(kind, resolved, layout, readable);
    if (why !== null) out.push({ syscall: t.syscall, kind: t.kind, named: t.path, resolved, why, line: t.line });
  }
  return out;
}

function judge(kind: TouchKind, p: string, layout: FixtureLayout, readable: readonly string[]): string | null {
  switch (kind) {
    case 'exec':
      return insideAny(p, SYSTEM_EXEC) ? null : 'executes a program that is not a system binary';
    case 'meta':
      if (insideAny(p, readable) || p === '/' || inside(layout.ws, p) || p === '/tmp' || p === '/dev') return null;
      return 'reads metadata outside the workspace and read roots';
    case 'read':
      return insideAny(p, readable) ? null : 'reads outside the workspace and read roots';
    case 'write': {
      if (insideAny(p, SYSTEM_WRITE)) return null;
      if (!inside(p, layout.ws)) return 'writes outside the workspace';
      const blocked = findBlockedEntry(p, layout.ws, path);
      return blocked === undefined ? null : `writes a blocklisted path (${blocked.why})`;
    }
  }
}
