import { join } from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { comparePaths } from '../../src/walk/bound-results.js';
import { compileGlob } from '../../src/walk/glob-matcher.js';
import { shownPath } from '../../src/walk/scope.js';
import type { GlobOutcome, GlobRequest } from '../../src/walk/types.js';
import { resolveWalkRoot, walkFiles } from './walk-tree.js';

/**
 * Lists the files under `request.root` whose relative path matches the glob, walking only the directories the
 * pattern's literal prefix and depth allow, and stopping once one path more than `maxResults` is found. The pattern
 * matches paths relative to the root; the paths returned are workspace-relative (absolute outside the workspace).
 * @throws ToolwardenError INVALID_ARGS for a bad pattern or a root that is a file, NOT_FOUND / NOT_READABLE for a bad root.
 */
export function globFiles(request: GlobRequest): GlobOutcome {
  const glob = compileGlob(request.pattern, 'path');
  const root = resolveWalkRoot(request.root, request.scope.roots);
  if (!root.isDir) {
    throw new ToolwardenError('INVALID_ARGS', `glob path '${request.root}' is a file; glob searches a directory, so pass its parent as 'path'`);
  }
  const workspaceRoot = request.scope.roots[0] ?? root.real;
  const paths: string[] = [];
  let truncated = false;
  const options = {
    scopeRoots: request.scope.roots,
    includeIgnored: request.includeIgnored ?? false,
    prefix: glob.prefix,
    ...(glob.maxSegments === undefined ? {} : { maxSegments: glob.maxSegments }),
  };
  walkFiles(root.real, options, (path) => {
    if (!glob.matches(path)) return true;
    if (paths.length >= request.maxResults) {
      truncated = true;
      return false;
    }
    paths.push(shownPath(join(root.real, path), workspaceRoot));
    return true;
  });
  return { paths: paths.sort(comparePaths), truncated };
}
