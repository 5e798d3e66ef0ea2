import path from 'node:path';
import { isInside } from '../path-guard/segments.js';

/**
 * Whether the canonical path `target` is one of `roots` or below one, compared by whole segments
 * (`/ws-evil` is not inside `/ws`): the path guard's own containment. Both sides must already be real paths.
 */
export function isInsideRoots(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(target, root, path));
}
