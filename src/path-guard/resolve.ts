import type { PlatformPath } from 'node:path';
import { ToolwardenError } from '../errors.js';
import { bareRepositoryWriteRefusal, rootRepositoryIsHosts } from './bare-repository.js';
import { canonicalizePath } from './canonicalize.js';
import { findBlockedSegment, findExcludedPath, findReadOnlyRoot, isMagicPath } from './deny-rules.js';
import { toAbsolutePath } from './input.js';
import { PATH_RULES, PathRefusal } from './refusal.js';
import { isInside } from './segments.js';
import type { BlockedPathKind } from './blocklist.js';
import type { CheckedPath, GuardFs, PathScope } from './types.js';

/**
 * Resolves a path lexically (no filesystem): relative against the workspace root, absolute normalized.
 * Throws INVALID_ARGS for unusable input and OUTSIDE_WORKSPACE when the result leaves the workspace
 * (unless `allowOutsideWorkspace`). Symlinks are not looked at: use {@link resolveForWrite} before writing.
 * @example resolveWorkspacePath('src/a.ts', scope, path.posix) // '/ws/src/a.ts'
 */
export function resolveWorkspacePath(input: unknown, scope: PathScope, flavour: PlatformPath): string {
  const lexical = toAbsolutePath(input, scope.workspaceRoot, flavour);
  if (!scope.allowOutsideWorkspace && !isInside(lexical, scope.workspaceRoot, flavour)) {
    throw new PathRefusal('OUTSIDE_WORKSPACE', String(input), PATH_RULES.outsideWorkspace(scope.workspaceRoot));
  }
  return lexical;
}

/**
 * Resolves a path for reading: its canonical form (symlinks followed) must be inside the workspace or a read root,
 * unless `allowOutsideWorkspace`. A path lexically inside is checked lexically too; one lexically outside (such as an
 * absolute path spelled through a symlinked workspace root) is accepted only when its canonical form is inside, both
 * sides canonical. Every refusal names the path as the caller wrote it and the rule (see {@link PathRefusal}), never
 * where a link leads: a link chain that fails (loops) once it left the roots reads as outside, like any other.
 * `/proc` and `/dev/fd`-style paths are never readable. Throws INVALID_ARGS, NOT_READABLE or SYMLINK_LOOP. The
 * blocklist does not apply to reads.
 */
export function resolveReadablePath(input: unknown, scope: PathScope, flavour: PlatformPath, fs: GuardFs): CheckedPath {
  const lexical = toAbsolutePath(input, scope.workspaceRoot, flavour);
  const written = String(input);
  checkReadable(written, lexical, scope, flavour, false, () => canonicalInside(lexical, readableRoots(scope), flavour, fs));
  const outside = (): PathRefusal => new PathRefusal('NOT_READABLE', written, PATH_RULES.outsideReadable(readableRoots(scope)), true);
  const canonical = canonicalizeWritten(written, lexical, scope, flavour, fs, outside);
  checkReadable(written, canonical, scope, flavour, canonical !== lexical);
  return canonical as CheckedPath;
}

/**
 * Resolves a path for writing: lexically (as {@link resolveWorkspacePath}, except that a path lexically outside is
 * accepted when its canonical form is inside the workspace, as for reads), then canonicalizes (symlinks followed hop
 * by hop) and checks the canonical path again. Refuses (BLOCKED_PATH) paths on the blocklist (`DEFAULT_BLOCKLIST`),
 * paths under `excludedPaths`, paths in read roots, and `/proc`-style paths, on the lexical and the canonical path
 * alike, even when `allowOutsideWorkspace`. `kind` is what the write leaves there when the caller knows (a file tool
 * writes files: `other`, so a `.git` file is refused). Throws INVALID_ARGS, OUTSIDE_WORKSPACE, BLOCKED_PATH or
 * SYMLINK_LOOP.
 * @example resolveForWrite('notes/todo.md', scope, path.posix, createNodeGuardFs(), 'other')
 */
export function resolveForWrite(input: unknown, scope: PathScope, flavour: PlatformPath, fs: GuardFs, kind: BlockedPathKind = 'unknown'): CheckedPath {
  const lexical = toAbsolutePath(input, scope.workspaceRoot, flavour);
  const written = String(input);
  const outside = (throughLink: boolean): PathRefusal => new PathRefusal('OUTSIDE_WORKSPACE', written, PATH_RULES.outsideWorkspace(scope.workspaceRoot), throughLink);
  if (!scope.allowOutsideWorkspace && !isInside(lexical, scope.workspaceRoot, flavour) && (isMagicPath(lexical, flavour) || !canonicalInside(lexical, [scope.workspaceRoot], flavour, fs))) {
    throw outside(false);
  }
  checkWritable(written, lexical, scope, flavour, kind, false);
  const canonical = canonicalizeWritten(written, lexical, scope, flavour, fs, () => outside(true));
  if (!scope.allowOutsideWorkspace && !isInside(canonical, scope.workspaceRoot, flavour)) throw outside(true);
  checkWritable(written, canonical, scope, flavour, kind, canonical !== lexical);
  checkBareRepositoryWrites([canonical], scope, flavour, fs, written);
  return canonical as CheckedPath;
}

/**
 * Refuses (BLOCKED_PATH) writes that together would feed an embedded bare repository (see
 * {@link bareRepositoryWriteRefusal}): each of `targets` (canonical) is checked with the others counted as written.
 * {@link resolveForWrite} applies it to its one path (`input`, as the caller spelled it, names it in the refusal); a
 * change of several files applies it to the whole set.
 */
export function checkBareRepositoryWrites(targets: readonly string[], scope: PathScope, flavour: PlatformPath, fs: GuardFs, input?: string): void {
  const present = (dir: string, name: string): boolean => fs.lstat(flavour.join(dir, name)) !== undefined;
  const rootIsHosts = rootRepositoryIsHosts(scope.blocklist);
  for (const target of targets) {
    const rule = bareRepositoryWriteRefusal(target, scope.workspaceRoot, flavour, present, targets, rootIsHosts);
    if (rule !== undefined) throw new PathRefusal('BLOCKED_PATH', input ?? target, PATH_RULES.notWritable(rule));
  }
}

/**
 * Whether a path lexically outside `roots` canonicalizes into one of them: a spelling through a symlinked root. Any
 * failure while following links outside counts as no, so the refusal names only the lexical path.
 */
function canonicalInside(lexical: string, roots: readonly string[], flavour: PlatformPath, fs: GuardFs): boolean {
  try {
    const canonical = canonicalizePath(lexical, flavour, fs);
    return roots.some((root) => isInside(canonical, root, flavour));
  } catch {
    return false;
  }
}

/**
 * {@link canonicalizePath} for a path the caller wrote as `written`. A failure once a link left the readable roots (a
 * loop, a target the guard does not support) would tell what lies outside, so it is the refusal `outside` makes; one
 * among the session's own links is restated naming only `written`.
 */
function canonicalizeWritten(written: string, lexical: string, scope: PathScope, flavour: PlatformPath, fs: GuardFs, outside: () => PathRefusal): string {
  let left = false;
  const roots = readableRoots(scope);
  try {
    return canonicalizePath(lexical, flavour, fs, (link) => {
      left ||= !scope.allowOutsideWorkspace && !roots.some((root) => isInside(link, root, flavour));
    });
  } catch (error) {
    if (left) throw outside();
    if (!(error instanceof ToolwardenError)) throw error;
    throw new PathRefusal(error.code, written, error.code === 'SYMLINK_LOOP' ? PATH_RULES.loop : 'leads through a symlink whose target the guard does not support');
  }
}

function readableRoots(scope: PathScope): string[] {
  return [scope.workspaceRoot, ...scope.readRoots];
}

/**
 * Whether a path the kernel resolved (an open descriptor's real path: absolute, normalized, no link on it) may be
 * read: the same rules as {@link resolveReadablePath}, with nothing left to canonicalize, so no filesystem call.
 */
export function isResolvedPathReadable(realPath: string, scope: PathScope, flavour: PlatformPath): boolean {
  return isResolvedForm(realPath, scope, flavour) && readRefusal(realPath, scope, flavour) === undefined;
}

/**
 * Whether a path the kernel resolved may be written: inside the workspace (unless `allowOutsideWorkspace`) and past
 * every rule on names {@link resolveForWrite} applies (blocklist, excluded paths, read roots, magic paths), without
 * any filesystem call. The embedded bare repository rule looks at the disk, so it is applied before the open only.
 */
export function isResolvedPathWritable(realPath: string, scope: PathScope, flavour: PlatformPath): boolean {
  if (!isResolvedForm(realPath, scope, flavour)) return false;
  if (!scope.allowOutsideWorkspace && !isInside(realPath, scope.workspaceRoot, flavour)) return false;
  return writeRefusal(realPath, scope, flavour) === undefined;
}

/**
 * A kernel-resolved path is already what the guard resolves it to against the workspace (absolute, normalized, on
 * the workspace's drive for a win32 path without one); anything else is refused.
 */
function isResolvedForm(p: string, scope: PathScope, flavour: PlatformPath): boolean {
  try {
    return toAbsolutePath(p, scope.workspaceRoot, flavour) === p;
  } catch {
    return false;
  }
}

/** Why `p` may not be read (`magic` or `outside`), or undefined. */
function readRefusal(p: string, scope: PathScope, flavour: PlatformPath): 'magic' | 'outside' | undefined {
  if (isMagicPath(p, flavour)) return 'magic';
  if (scope.allowOutsideWorkspace) return undefined;
  if (isInside(p, scope.workspaceRoot, flavour) || scope.readRoots.some((root) => isInside(p, root, flavour))) return undefined;
  return 'outside';
}

function checkReadable(input: string, p: string, scope: PathScope, flavour: PlatformPath, throughLink: boolean, insideViaLink?: () => boolean): void {
  const refusal = readRefusal(p, scope, flavour);
  if (refusal === undefined || (refusal === 'outside' && insideViaLink?.())) return;
  throw new PathRefusal('NOT_READABLE', input, refusal === 'magic' ? PATH_RULES.magic : PATH_RULES.outsideReadable(readableRoots(scope)), throughLink);
}

/** The rule `p` breaks for writing (a sentence), or undefined. */
function writeRefusal(p: string, scope: PathScope, flavour: PlatformPath, kind: BlockedPathKind = 'unknown'): string | undefined {
  if (isMagicPath(p, flavour)) return 'kernel magic paths (/proc, /dev/fd) are never written';
  const blocked = findBlockedSegment(p, scope, flavour, kind);
  if (blocked !== undefined) return blocked;
  const excluded = findExcludedPath(p, scope, flavour);
  if (excluded !== undefined) return `it is under the excluded path "${excluded}"`;
  const readOnly = findReadOnlyRoot(p, scope, flavour);
  if (readOnly !== undefined) return `it is in the read-only root ${readOnly}`;
  return undefined;
}

function checkWritable(input: string, p: string, scope: PathScope, flavour: PlatformPath, kind: BlockedPathKind, throughLink: boolean): void {
  const rule = writeRefusal(p, scope, flavour, kind);
  if (rule !== undefined) throw new PathRefusal('BLOCKED_PATH', input, PATH_RULES.notWritable(rule), throughLink);
}
