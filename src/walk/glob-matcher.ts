import picomatch from 'picomatch';
import { ToolwardenError } from '../errors.js';

/** A compiled glob plus what it tells a walk about where matches can be, so the walk can prune. */
export interface GlobMatcher {
  /** Tests a `/`-separated path relative to the walk root. */
  readonly matches: (relativePath: string) => boolean;
  /** Literal leading segments every match starts with (`src/**` gives `['src']`); the walk enters only these. */
  readonly prefix: readonly string[];
  /** Most segments a match can have, or undefined when unbounded (`**`, braces, extglobs). */
  readonly maxSegments: number | undefined;
}

/**
 * How a glob is matched. `path`: against the whole relative path (`*.ts` matches top-level files only), as the
 * glob tool does. `filter`: a pattern without `/` matches the file name at any depth, as grep's file filter does.
 */
export type GlobMode = 'path' | 'filter';

/**
 * Compiles a glob with picomatch. Dot files and dot directories are matched (`dot: true`): agents look for
 * `.github/**` and `.eslintrc.*`, and the noisy dot directory (`.git`) is already skipped by the ignore rules.
 * @throws ToolwardenError INVALID_ARGS for an empty or absolute pattern, a NUL byte, or a `..` segment (a walk
 * only sees paths below its root; pass another `path` instead).
 */
export function compileGlob(pattern: string, mode: GlobMode): GlobMatcher {
  validateGlob(pattern);
  const isFilterByName = mode === 'filter' && !pattern.includes('/');
  const test = picomatch(pattern, { dot: true, basename: isFilterByName });
  if (isFilterByName) return { matches: test, prefix: [], maxSegments: undefined };
  return { matches: test, prefix: readLiteralPrefix(pattern), maxSegments: countMaxSegments(pattern) };
}

function validateGlob(pattern: string): void {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new ToolwardenError('INVALID_ARGS', 'glob pattern must be a non-empty string');
  }
  if (pattern.includes('\0')) throw new ToolwardenError('INVALID_ARGS', `glob pattern '${pattern.replace(/\0/g, '\\0')}' contains a NUL byte`);
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) {
    throw new ToolwardenError('INVALID_ARGS', `glob pattern '${pattern}' is absolute; patterns are relative to the search path, so pass the directory as 'path'`);
  }
  if (pattern.split('/').includes('..')) {
    throw new ToolwardenError('INVALID_ARGS', `glob pattern '${pattern}' climbs with '..'; patterns only match below the search path, so pass a different 'path'`);
  }
}

function readLiteralPrefix(pattern: string): string[] {
  const scanned = picomatch.scan(pattern);
  if (scanned.negated) return [];
  // A pattern with no glob at all is fully literal: its last segment is the file name itself.
  const literal = scanned.isGlob ? scanned.base : pattern;
  if (literal.includes('\\')) return [];
  return literal.split('/').filter((segment) => segment !== '' && segment !== '.');
}

function countMaxSegments(pattern: string): number | undefined {
  if (/\*\*|[{}()!]/.test(pattern) || pattern.includes('\\')) return undefined;
  return pattern.split('/').filter((segment) => segment !== '' && segment !== '.').length;
}
