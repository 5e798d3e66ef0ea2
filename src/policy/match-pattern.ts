import picomatch from 'picomatch';

/** A compiled pattern: tests one path, command or tool name. */
export type PatternMatcher = (item: string) => boolean;

const cache = new Map<string, PatternMatcher>();

/**
 * Compiles a file-tool pattern: a picomatch glob over workspace-relative paths. `dot` is on so that
 * `secrets/**` also covers `secrets/.key`; a deny rule must not miss hidden files.
 */
export function compilePathPattern(pattern: string): PatternMatcher {
  return memoize(`p\0${pattern}`, () => {
    const isMatch = picomatch(pattern, { dot: true });
    return (path) => isMatch(path);
  });
}

/**
 * Compiles a command or tool-name pattern: `*` matches any characters (spaces included), everything else is
 * literal. Runs of whitespace count as one space, and a trailing ` *` is optional, so `git push *` also
 * matches a bare `git push`.
 * @example compileWordPattern('git push*')('git push --force origin') // true
 */
export function compileWordPattern(pattern: string): PatternMatcher {
  return memoize(`w\0${pattern}`, () => {
    const normalized = normalizeSpaces(pattern);
    const bare = normalized.endsWith(' *') && normalized.length > 2 ? normalized.slice(0, -2) : undefined;
    return (item) => {
      const text = normalizeSpaces(item);
      return matchWildcard(normalized, text) || (bare !== undefined && matchWildcard(bare, text));
    };
  });
}

/** Glob with `*` as the only wildcard, in O(pattern x text) time: no regex, so no catastrophic backtracking. */
function matchWildcard(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      starP = p;
      starT = t;
      p += 1;
    } else if (starP !== -1) {
      p = starP + 1;
      starT += 1;
      t = starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

function normalizeSpaces(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function memoize(key: string, build: () => PatternMatcher): PatternMatcher {
  let matcher = cache.get(key);
  if (matcher === undefined) {
    matcher = build();
    // Rule sets are small and long-lived; the bound only protects against a host generating patterns per call.
    if (cache.size >= 4096) cache.clear();
    cache.set(key, matcher);
  }
  return matcher;
}
