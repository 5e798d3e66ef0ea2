import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostSeccompFilter } from '../../src/sandbox/seccomp/filter.js';
import { SECCOMP_FD } from '../../src/sandbox/types.js';

let written: string | undefined | null;

/**
 * The path of this process's seccomp filter file (written once, mode 0444, in a fresh private directory, removed
 * at exit), or undefined on an architecture the filter does not know. bwrap reads it from an fd only, so the
 * wrapper opens it.
 */
export function seccompFilterPath(): string | undefined {
  if (written !== undefined) return written ?? undefined;
  const bytes = hostSeccompFilter();
  if (bytes === undefined) {
    written = null;
    return undefined;
  }
  // mkdtemp makes a new 0700 directory, so no other user can have planted a permissive filter at the path.
  const dir = mkdtempSync(join(tmpdir(), 'toolwarden-seccomp-'));
  const file = join(dir, 'filter.bpf');
  writeFileSync(file, bytes, { mode: 0o444 });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  written = file;
  return file;
}

/** Prefixes the bwrap argv with a /bin/sh that opens the filter on SECCOMP_FD and execs bwrap (no quoting involved). */
export function withSeccompFd(filterPath: string, bwrapArgv: readonly string[]): string[] {
  return ['/bin/sh', '-c', `exec ${SECCOMP_FD}<"$0" && exec "$@"`, filterPath, ...bwrapArgv];
}
