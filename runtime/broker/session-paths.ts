import path from 'node:path';
import type { PlatformPath } from 'node:path';
import { checkBareRepositoryWrites, resolveForWrite, resolveReadablePath, resolveWorkspacePath, type BlockedPathKind, type CheckedPath, type PathScope } from '../../src/path-guard/index.js';
import type { Capability } from '../../src/capability/capability.js';
import { effectiveBlocklist } from '../../src/capability/effective-blocklist.js';
import type { GuardFs } from '../../src/path-guard/index.js';
import { createSessionGuardFs } from './session-guard-fs.js';
import { repositoryHooksEntries } from './repo-hooks.js';
import { createReadCheck, createWriteCheck, type IsAllowed } from '../fs/index.js';

/** The path guard bound to one session's capability and the host's path flavour. */
export class SessionPaths {
  readonly scope: PathScope;
  readonly flavour: PlatformPath;
  readonly #fs: GuardFs;

  constructor(capability: Capability, flavour: PlatformPath = path) {
    this.flavour = flavour;
    this.scope = {
      workspaceRoot: capability.workspaceRoot,
      readRoots: capability.readRoots,
      allowOutsideWorkspace: capability.allowOutsideWorkspace,
      excludedPaths: capability.excludedPaths,
      // The capability's list, plus the hooks directory the repository's git config names (read once, at open).
      blocklist: [...effectiveBlocklist(capability), ...repositoryHooksEntries(capability.workspaceRoot)],
    };
    this.#fs = createSessionGuardFs([capability.workspaceRoot, ...capability.readRoots]);
    this.isReadableReal = createReadCheck(this.scope);
    this.isWritableReal = createWriteCheck(this.scope);
  }

  /** A path the session may read (workspace or read roots), canonical. */
  readable(input: unknown): CheckedPath {
    return resolveReadablePath(input, this.scope, this.flavour, this.#fs);
  }

  /**
   * A path the session may write: boundary, symlinks, blocklist and excluded paths checked. `kind` is what the write
   * leaves there when known (`other` for a file tool's file). @default 'unknown'
   */
  writable(input: unknown, kind: BlockedPathKind = 'unknown'): CheckedPath {
    return resolveForWrite(input, this.scope, this.flavour, this.#fs, kind);
  }

  /**
   * Refuses (BLOCKED_PATH) a set of writes that together would feed an embedded bare repository, each checked with
   * the others counted as written (each alone passed {@link writable}).
   */
  checkWriteSet(targets: readonly CheckedPath[]): void {
    if (targets.length > 1) checkBareRepositoryWrites(targets, this.scope, this.flavour, this.#fs);
  }

  /** A working directory for a command: inside the workspace unless outside access is allowed. */
  workingDirectory(input: unknown): string {
    return resolveWorkspacePath(input ?? '.', this.scope, this.flavour);
  }

  /** Whether an opened descriptor's real path (kernel-resolved, so link-free) may be read: the re-check after open. */
  readonly isReadableReal: IsAllowed;

  /** Whether an opened descriptor's real path (kernel-resolved, so link-free) may be written: the re-check after open. */
  readonly isWritableReal: IsAllowed;

  /** A path relative to the workspace root for display, or the absolute path when outside. */
  display(absolute: string): string {
    const relative = this.flavour.relative(this.scope.workspaceRoot, absolute);
    if (relative === '') return '.';
    return relative.startsWith('..') || this.flavour.isAbsolute(relative) ? absolute : relative.split(this.flavour.sep).join('/');
  }
}
