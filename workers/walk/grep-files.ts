import { basename, join } from 'node:path';
import { compareMatches, trimMatchLine } from '../../src/walk/bound-results.js';
import { compileGlob } from '../../src/walk/glob-matcher.js';
import { compileGrepPattern } from '../../src/walk/grep-pattern.js';
import { shownPath } from '../../src/walk/scope.js';
import { searchText } from '../../src/walk/search-text.js';
import type { GrepMatch, GrepOutcome, GrepRequest } from '../../src/walk/types.js';
import { literalSearch } from './literal-search.js';
import { TextReader } from './read-text-file.js';
import { openVerifiedFile } from './walk-dir.js';
import { defaultWalkIo } from './walk-io.js';
import { resolveWalkRoot, walkFiles, type FileSource } from './walk-tree.js';

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
  const io = defaultWalkIo();
  const reader = new TextReader(io, request.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  // Most files lack the pattern's required text: they are skipped on their bytes, neither decoded nor matched.
  const hasRequired = pattern.required === undefined ? undefined : literalSearch(pattern.required);
  const matches: GrepMatch[] = [];
  let truncated = false;
  let filesScanned = 0;

  const workspaceRoot = request.scope.roots[0] ?? root.real;
  // The file being searched; its shown path is made on its first match, not for every file read.
  let currentPath = '';
  let currentShown: string | undefined;
  const onMatch = (line: number, text: string, column: number): boolean => {
    if (matches.length >= request.maxResults) {
      truncated = true;
      return false;
    }
    currentShown ??= shownPath(root.isDir ? join(root.real, currentPath) : root.real, workspaceRoot);
    matches.push({ path: currentShown, line, text: trimMatchLine(text, column) });
    return true;
  };
  const searchFile = (path: string, source: FileSource, key: string): boolean => {
    if (filter !== undefined && !filter.matches(path)) return true;
    const fd = source.openFile(key);
    if (fd < 0) return true;
    const bytes = reader.read(fd);
    if (bytes === undefined) return true;
    filesScanned += 1;
    if (hasRequired !== undefined && !hasRequired(bytes)) return true;
    currentPath = path;
    currentShown = undefined;
    return searchText(bytes.toString('utf8'), pattern, onMatch);
  };

  if (root.isDir) {
    walkFiles(root.real, { scopeRoots: request.scope.roots, includeIgnored: request.includeIgnored ?? false, io, ...pruneFor(filter) }, searchFile);
  } else {
    searchFile(basename(root.real), { openFile: (real) => openVerifiedFile(real, io) }, root.real);
  }
  return { matches: matches.sort(compareMatches), truncated, filesScanned };
}

function pruneFor(filter: ReturnType<typeof compileGlob> | undefined): { prefix?: readonly string[]; maxSegments?: number } {
  if (filter === undefined) return {};
  return filter.maxSegments === undefined ? { prefix: filter.prefix } : { prefix: filter.prefix, maxSegments: filter.maxSegments };
}
