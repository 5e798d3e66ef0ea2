/** Characters of a matching line kept in a grep result. */
export const MAX_LINE_CHARS = 300;

/** Characters kept before the match when a long line is cut, so the match stays visible. */
const CONTEXT_BEFORE = 100;

/**
 * Cuts a long line to about `max` characters around the match at `column`, marking each cut with `…`
 * (minified files have lines of megabytes; the match is what the model needs).
 */
export function trimMatchLine(line: string, column: number, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(column - CONTEXT_BEFORE, line.length - max));
  const end = start + max;
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

/** Orders `/`-separated relative paths by code unit (locale-independent, so results are the same on every machine). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders grep matches by path, then line. */
export function compareMatches(a: { path: string; line: number }, b: { path: string; line: number }): number {
  return comparePaths(a.path, b.path) || a.line - b.line;
}
