import path from 'node:path';
import type { PlatformPath } from 'node:path';
import { checkBareRepositoryWrites, isResolvedPathReadable, resolveForWrite, resolveReadablePath, resolveWorkspacePath, type BlockedPathKind, type CheckedPath, type PathScope } from '../../src/path-guard/index.js';
import { isInside } from '../../src/path-guard/segments.js';
import type { Capability } from '../../src/capability/capability.js';
import { effectiveBlocklist } from '../../src/capability/effective-blocklist.js';
import type { GuardFs } from '../../src/path-guard/index.js';
import { namesBareRepositoryEntry, rootRepositoryIsHosts } from '../../src/path-guard/bare-repository.js';
import { createSessionGuardFs } from './session-guard-fs.js';
import { withRepositoryWriteTurn } from './repository-write-lock.js';
import { repositoryHooksEntries } from './repo-hooks.js';
import type { Stats } from 'node:fs';
import { createReadCheck, createWriteCheck, type IsAllowed } from '../fs/index.js';
import { BeneathOpener } from '../fs/open-beneath.js';

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
   * A readable regular file opened in one system call (see BeneathOpener), with its stat: the input made absolute
   * must lie beneath the workspace or a read root, pass the read rules as it is, and reach a regular file with no
   * link on the way. Undefined otherwise, and wherever openat2 is not available: the caller then takes {@link
   * readable} and a verified open, which decide the path (and every refusal) the full way. The caller closes `fd`.
   */
  openReadableFile(input: string): { fd: number; stat: Stats; path: CheckedPath } | undefined {
    const opener = BeneathOpener.get();
    if (opener === undefined || this.flavour !== path || input === '' || input.includes('\0') || input.endsWith('/') || input.endsWith('/.')) return undefined;
    const lexical = this.flavour.resolve(this.scope.workspaceRoot, input);
    if (!isResolvedPathReadable(lexical, this.scope, this.flavour)) return undefined;
    const root = this.#rootOf(lexical);
    if (root === undefined) return undefined;
    const opened = opener.openFile(root, root === '/' ? lexical.slice(1) : lexical.slice(root.length + 1));
    return opened === undefined ? undefined : { ...opened, path: lexical as CheckedPath };
  }

  /** The workspace root or read root a canonical path lies strictly beneath, if any. */
  #rootOf(p: string): string | undefined {
    if (p !== this.scope.workspaceRoot && isInside(p, this.scope.workspaceRoot, this.flavour)) return this.scope.workspaceRoot;
    return this.scope.readRoots.find((root) => p !== root && isInside(p, root, this.flavour));
  }

  /**
   * A path the session may write: boundary, symlinks, blocklist and excluded paths checked. `kind` is what the write
   * leaves there when known (`other` for a file tool's file). @default 'unknown'
   */
  writable(input: unknown, kind: BlockedPathKind = 'unknown'): CheckedPath {
    return resolveForWrite(input, this.scope, this.flavour, this.#fs, kind);
  }

  /**
   * Runs `work`, which writes `change.writes` and removes `change.deletes` (each passed {@link writable}), so that no
   * other write that could feed an embedded bare repository interleaves with it: when a path names a repository
   * marker or code entry, `work` waits for the process-wide turn, and the writes, each counted with the others as
   * written, are checked again on the disk as the earlier holders left it (BLOCKED_PATH) before it starts. A delete
   * takes the turn too, since a failed change puts back what it removed. Other changes run at once.
   */
  async writeExclusively<T>(change: { writes: readonly CheckedPath[]; deletes?: readonly CheckedPath[] }, work: () => Promise<T>): Promise<T> {
    const paths = [...change.writes, ...(change.deletes ?? [])];
    const rootIsHosts = rootRepositoryIsHosts(this.scope.blocklist);
    if (!paths.some((p) => namesBareRepositoryEntry(p, this.scope.workspaceRoot, this.flavour, rootIsHosts))) return work();
    return withRepositoryWriteTurn(async () => {
      checkBareRepositoryWrites(change.writes, this.scope, this.flavour, this.#fs);
      return work();
    });
  }

  /**
   * A working directory for a command: inside the workspace unless outside access is allowed, and readable once its
   * links are followed, so a cwd through a link out is refused the same whether anything stands there (NOT_READABLE).
   */
  workingDirectory(input: unknown): string {
    const lexical = resolveWorkspacePath(input ?? '.', this.scope, this.flavour);
    this.readable(input ?? '.');
    return lexical;
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
