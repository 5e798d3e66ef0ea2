import { posix } from 'node:path';
import { lookupPhysical } from './physical.js';
import type { ShellFs } from './types.js';

/**
 * Why git run from `cwd` would not use the workspace's own repository, or null when it would: git finds its
 * repository by walking up to the first `.git`, and that repository's config can run programs (core.fsmonitor,
 * core.hooksPath, core.pager, diff drivers). Only the top repository's `.git` is outside the agent's reach (the
 * guard's blocklist keeps writes off it).
 */
export function foreignRepository(fs: ShellFs, cwd: string, workspaceRoot: string): string | null {
  const start = lookupPhysical(fs, '/', cwd);
  if ('unresolved' in start) return start.unresolved;
  const root = lookupPhysical(fs, '/', workspaceRoot);
  const top = 'path' in root ? root.path : workspaceRoot;
  for (let dir = start.path; ; dir = posix.dirname(dir)) {
    const kind = fs.kind(posix.join(dir, '.git'));
    if (kind !== null) {
      if (dir !== top) return `git would use the repository at ${dir}, whose configuration may run programs`;
      // A `.git` file at the top (a worktree) points outside the workspace, where the agent cannot write either.
      return kind === 'dir' || kind === 'file' ? null : `${dir}/.git is neither a directory nor a file`;
    }
    if (dir === top) return `the workspace root has no .git, so git would look for a repository above it`;
    if (dir === '/' || !dir.startsWith(`${top}/`)) return `git would look for a repository outside the workspace, from ${dir}`;
  }
}
