import path from 'node:path';
import { isInside } from '../path-guard/segments.js';

/**
 * Whether the canonical path `target` is one of `roots` or below one, compared by whole segments
 * (`/ws-evil` is not inside `/ws`): the path guard's own containment. Both sides must already be real paths.
 */
export function isInsideRoots(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(target, root, path));
}

/**
 * How a walk result is shown: `/`-separated and relative to the workspace root when the canonical `real` path is
 * inside it, else absolute, so read_file accepts every result as-is whatever `path` the search was given.
 * @example shownPath('/ws/src/a.ts', '/ws') // 'src/a.ts'
 */
export function shownPath(real: string, workspaceRoot: string): string {
  if (!isInside(real, workspaceRoot, path)) return real;
  return path.relative(workspaceRoot, real).split(path.sep).join('/') || '.';
}
