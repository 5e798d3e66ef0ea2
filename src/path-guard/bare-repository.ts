import { foldForDeny } from './blocklist.js';

/**
 * An embedded bare repository: git takes a directory holding `HEAD`, `objects` and `refs` as a repository of its
 * own (with `safe.bareRepository` at its default) when it runs there, and then runs that directory's `config`
 * (core.fsmonitor, aliases) and `hooks/`. The name-based blocklist cannot see one, since nothing in it is called
 * `.git`; this structural rule covers what such a directory holds that runs code, as a nested repository's `.git`.
 */

/** The entries that make a directory a repository to git. */
export const BARE_REPOSITORY_MARKERS: readonly string[] = ['HEAD', 'objects', 'refs'];

/** What git takes configuration, hooks or another repository from, in a repository directory. */
export const BARE_REPOSITORY_CODE_ENTRIES: ReadonlySet<string> = new Set(['config', 'config.worktree', 'hooks', 'commondir', 'worktrees', 'modules']);

/** Whether a directory whose entries are `names` is a repository to git (every marker present). */
export function isBareRepositoryLayout(names: Iterable<string>): boolean {
  const present = new Set(names);
  return BARE_REPOSITORY_MARKERS.every((marker) => present.has(marker));
}

/** Whether `name`, an entry of a repository directory, is one git runs code from (case-folded, as deny rules are). */
export function isBareRepositoryCodeEntry(name: string): boolean {
  return BARE_REPOSITORY_CODE_ENTRIES.has(foldForDeny(name));
}
