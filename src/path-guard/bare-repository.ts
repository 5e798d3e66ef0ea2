import type { PlatformPath } from 'node:path';
import { DEFAULT_BLOCKLIST, foldForDeny, type BlockedEntry } from './blocklist.js';

/**
 * An embedded bare repository: git takes a directory holding `HEAD`, `objects` and `refs` as a repository of its
 * own (with `safe.bareRepository` at its default) when it runs there, and then runs that directory's `config`
 * (core.fsmonitor, aliases) and `hooks/`. The name-based blocklist cannot see one, since nothing in it is called
 * `.git`; this structural rule covers what such a directory holds that runs code, as a nested repository's `.git`.
 */

/** The entries that make a directory a repository to git (with HEAD, `commondir` stands in for the other two). */
export const BARE_REPOSITORY_MARKERS: readonly string[] = ['HEAD', 'objects', 'refs'];

/** What git takes configuration, hooks or another repository from, in a repository directory. */
export const BARE_REPOSITORY_CODE_ENTRIES: ReadonlySet<string> = new Set(['config', 'config.worktree', 'hooks', 'commondir', 'worktrees', 'modules']);

/**
 * Whether a directory whose entries are `names` is a repository to git: HEAD with objects and refs, or HEAD with a
 * `commondir`, since git then looks for objects and refs (and takes config and hooks) in the directory it names.
 */
export function isBareRepositoryLayout(names: Iterable<string>): boolean {
  const present = new Set(names);
  return isLayout((name) => present.has(name));
}

/** The layout rule over a presence test, for a listing and for a write's probes alike. */
function isLayout(has: (name: string) => boolean): boolean {
  return has('HEAD') && ((has('objects') && has('refs')) || has('commondir'));
}

/** Whether `name`, an entry of a repository directory, is one git runs code from (case-folded, as deny rules are). */
export function isBareRepositoryCodeEntry(name: string): boolean {
  return BARE_REPOSITORY_CODE_ENTRIES.has(foldForDeny(name));
}

/**
 * Whether the layout rule leaves a directory (its segments below the workspace root, at least one) to the name-based
 * list: a directory named exactly `.git` (the list's rows cover what git runs there), and the repositories the
 * `.git/modules/…` and `.git/worktrees/…` of a repository hold (the top repository's are the host's, like its
 * `.git/config`; a nested one's are blocked whole by the list). Anything else below a `.git` (`x/.git/inner`, a
 * `.GIT` on a case-sensitive disk, which git does not take for `.git`) is a directory like any other.
 */
export function layoutRuleSkips(segments: readonly string[]): boolean {
  if (segments.at(-1) === '.git') return true;
  for (let k = 0; k + 2 < segments.length; k += 1) {
    if (segments[k] === '.git' && (segments[k + 1] === 'modules' || segments[k + 1] === 'worktrees')) return true;
  }
  return false;
}

/**
 * Whether the workspace root's own repository is the host's, so that the layout rule leaves the root alone: unless
 * the list blocks `.git/config` at the root too (a child session rooted below its parent's root, where the list's
 * `nested` entries became `any`; a host that blocks even its own repository's config).
 */
export function rootRepositoryIsHosts(list: readonly BlockedEntry[] = DEFAULT_BLOCKLIST): boolean {
  return !list.some((entry) => entry.depth === 'any' && entry.only === undefined && entry.segments.length === 2 && foldForDeny(entry.segments[0]!) === '.git' && foldForDeny(entry.segments[1]!) === 'config');
}

/**
 * Why a write of `target` (a canonical path) would feed an embedded bare repository below `workspaceRoot`, or
 * undefined: an entry git runs code from (`config`, `hooks/…`) in a directory that holds HEAD, objects and refs, or
 * the marker that completes that layout (it is not there yet) in a directory that already holds such an entry.
 * `present(dir, name)` says whether `dir/name` exists; `planned` are the canonical paths the same change writes,
 * counted as present. The directories {@link layoutRuleSkips} names are left to the name-based list, and so is the
 * workspace root while `rootIsHosts` (see {@link rootRepositoryIsHosts}), as in the sandbox's walk.
 * Only a target naming a marker or a code entry costs a `present` call.
 */
export function bareRepositoryWriteRefusal(
  target: string,
  workspaceRoot: string,
  flavour: PlatformPath,
  present: (dir: string, name: string) => boolean,
  planned: readonly string[] = [],
  rootIsHosts = true,
): string | undefined {
  for (const { dir, name, codeEntry } of repositoryEntriesNamed(target, workspaceRoot, flavour, rootIsHosts)) {
    const entry = foldForDeny(name);
    // A marker that is there already completes nothing: writing inside an existing repository's objects is not new.
    if (!codeEntry && present(dir, name)) continue;
    const plannedHere = plannedEntries(planned, dir, flavour);
    const has = (other: string): boolean => foldForDeny(other) === entry || plannedHere.has(foldForDeny(other)) || present(dir, other);
    if (!isLayout(has)) continue;
    const feeds = codeEntry ? name : [...BARE_REPOSITORY_CODE_ENTRIES].find(has);
    if (feeds !== undefined) {
      return `${flavour.join(dir, feeds)} would be what git runs code from in ${dir}, which ${codeEntry ? 'holds' : 'would then hold'} HEAD, objects and refs (an embedded bare repository)`;
    }
  }
  return undefined;
}

/**
 * Whether a write of `target` names a repository marker or a code entry in a directory the layout rule looks at
 * (below `workspaceRoot`, or the root itself unless `rootIsHosts`; not one {@link layoutRuleSkips} names): the writes {@link bareRepositoryWriteRefusal} looks at the disk for, and so the ones whose
 * check must not interleave with another such write's.
 */
export function namesBareRepositoryEntry(target: string, workspaceRoot: string, flavour: PlatformPath, rootIsHosts = true): boolean {
  return !repositoryEntriesNamed(target, workspaceRoot, flavour, rootIsHosts).next().done;
}

/**
 * Each directory on `target`'s way below the root (the root too unless `rootIsHosts`), other than those
 * {@link layoutRuleSkips} names, whose next segment is a marker or a code entry, nearest the root first.
 */
function* repositoryEntriesNamed(target: string, workspaceRoot: string, flavour: PlatformPath, rootIsHosts: boolean): Generator<{ dir: string; name: string; codeEntry: boolean }> {
  const segments = segmentsBelow(target, workspaceRoot, flavour);
  if (segments === undefined) return;
  for (let depth = rootIsHosts ? 1 : 0; depth < segments.length; depth += 1) {
    if (depth > 0 && layoutRuleSkips(segments.slice(0, depth))) continue;
    const name = segments[depth]!;
    const codeEntry = BARE_REPOSITORY_CODE_ENTRIES.has(foldForDeny(name));
    if (codeEntry || FOLDED_MARKERS.includes(foldForDeny(name))) yield { dir: flavour.join(workspaceRoot, ...segments.slice(0, depth)), name, codeEntry };
  }
}

const FOLDED_MARKERS = BARE_REPOSITORY_MARKERS.map(foldForDeny);

/** The segments of `target` below `root`, or undefined when it is not below it. */
function segmentsBelow(target: string, root: string, flavour: PlatformPath): string[] | undefined {
  const relative = flavour.relative(root, target);
  if (relative === '' || relative.startsWith('..') || flavour.isAbsolute(relative)) return undefined;
  return relative.split(flavour.sep);
}

/** The case-folded names directly in `dir` that `planned` paths create. */
function plannedEntries(planned: readonly string[], dir: string, flavour: PlatformPath): Set<string> {
  const names = new Set<string>();
  for (const p of planned) {
    const below = segmentsBelow(p, dir, flavour);
    if (below !== undefined) names.add(foldForDeny(below[0]!));
  }
  return names;
}
