import { basename, join } from 'node:path';
import { compareMatches, trimMatchLine } from '../../src/walk/bound-results.js';
import { compileGlob } from '../../src/walk/glob-matcher.js';
import { compileGrepPattern } from '../../src/walk/grep-pattern.js';
import { shownPath } from '../../src/walk/scope.js';
import { searchText } from '../../src/walk/search-text.js';
import type { GrepMatch, GrepOutcome, GrepRequest } from '../../src/walk/types.js';
import { readTextFile } from './read-text-file.js';
import { resolveWalkRoot, walkFiles } from './walk-tree.js';

/** Files larger than this are skipped unless the request says otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Searches the file or directory tree at `request.root` line by line, stopping as soon as one match more than
 * `maxResults` proves the output truncated. Binary and oversized files are skipped. Match paths are
 * workspace-relative (absolute outside the workspace), whatever the root, so read_file takes them as-is.
 * @throws ToolwardenError INVALID_ARGS for a bad pattern or glob, NOT_FOUND / NOT_READABLE for a bad root.
 */
export function grepFiles(request: GrepRequest): GrepOutcome {
  const pattern = compileGrepPattern(request.pattern, request.ignoreCase ?? false);
  const filter = request.glob === undefined ? undefined : compileGlob(request.glob, 'filter');
  const root = resolveWalkRoot(request.root, request.scope.roots);
  const maxBytes = request.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const matches: GrepMatch[] = [];
  let truncated = false;
  let filesScanned = 0;

  const workspaceRoot = request.scope.roots[0] ?? root.real;
  const searchFile = (path: string, realPath: string, openPath: string): boolean => {
    if (filter !== undefined && !filter.matches(path)) return true;
    const shown = shownPath(root.isDir ? join(root.real, path) : root.real, workspaceRoot);
    const content = readTextFile(openPath, maxBytes, openPath === realPath ? realPath : undefined);
    if (content === undefined) return true;
    filesScanned += 1;
    return searchText(content, pattern, (line, text, column) => {
      if (matches.length >= request.maxResults) {
        truncated = true;
        return false;
      }
      matches.push({ path: shown, line, text: trimMatchLine(text, column) });
      return true;
    });
  };

  if (root.isDir) {
    walkFiles(root.real, { scopeRoots: request.scope.roots, includeIgnored: request.includeIgnored ?? false, ...pruneFor(filter) }, searchFile);
  } else {
    searchFile(basename(root.real), root.real, root.real);
  }
  return { matches: matches.sort(compareMatches), truncated, filesScanned };
}

function pruneFor(filter: ReturnType<typeof compileGlob> | undefined): { prefix?: readonly string[]; maxSegments?: number } {
  if (filter === undefined) return {};
  return filter.maxSegments === undefined ? { prefix: filter.prefix } : { prefix: filter.prefix, maxSegments: filter.maxSegments };
}
