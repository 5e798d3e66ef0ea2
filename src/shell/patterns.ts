// Words are carried as "patterns": quoted or escaped characters that would otherwise be special to brace or
// glob expansion are backslash-escaped, so quoting survives until expansion decides what is literal.
const SPECIAL = /[\\*?[\]{},]/g;
const MAX_BRACE_WORDS = 64;

/** Escapes a literal (quoted) string so no character in it takes part in brace or glob expansion. */
export function escapeLiteral(text: string): string {
  return text.replace(SPECIAL, (c) => `\\${c}`);
}

/** The literal text of a pattern: escapes removed, glob characters kept as written. */
export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, '$1');
}

/** Whether an unescaped `*`, `?` or `[` makes the pattern a glob. */
export function hasGlob(pattern: string): boolean {
  return /(^|[^\\])(\\\\)*[*?[]/.test(pattern);
}

/**
 * Brace-expands a pattern as bash does (`a{b,c}` and `{1..3}`), or returns null when it would make more than
 * {@link MAX_BRACE_WORDS} words.
 */
export function expandBraces(pattern: string): string[] | null {
  const out: string[] = [];
  const queue = [pattern];
  while (queue.length > 0) {
    const current = queue.pop() as string;
    const parts = splitFirstBrace(current);
    if (parts === null) {
      out.push(current);
    } else {
      for (const alt of parts.alternatives) queue.push(parts.before + alt + parts.after);
    }
    if (out.length + queue.length > MAX_BRACE_WORDS) return null;
  }
  return out.reverse();
}

function splitFirstBrace(pattern: string): { before: string; alternatives: string[]; after: string } | null {
  for (let start = 0; start < pattern.length; start++) {
    const c = pattern[start];
    if (c === '\\') {
      start++;
      continue;
    }
    if (c !== '{') continue;
    const body = findBraceBody(pattern, start);
    if (body === null) continue;
    const inner = pattern.slice(start + 1, body.end);
    const alternatives = body.commas.length > 0 ? splitAt(inner, body.commas.map((i) => i - start - 1)) : expandSequence(inner);
    if (alternatives === null) continue;
    return { before: pattern.slice(0, start), alternatives, after: pattern.slice(body.end + 1) };
  }
  return null;
}

function findBraceBody(pattern: string, start: number): { end: number; commas: number[] } | null {
  let depth = 0;
  const commas: number[] = [];
  for (let i = start; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) return { end: i, commas };
    } else if (c === ',' && depth === 1) {
      commas.push(i);
    }
  }
  return null;
}

function splitAt(text: string, positions: number[]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const p of positions) {
    parts.push(text.slice(from, p));
    from = p + 1;
  }
  parts.push(text.slice(from));
  return parts;
}

function expandSequence(inner: string): string[] | null {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (numeric) {
    const from = Number(numeric[1]);
    const to = Number(numeric[2]);
    const step = Math.abs(Number(numeric[3] ?? 1)) || 1;
    if (Math.abs(to - from) / step >= MAX_BRACE_WORDS) return null;
    const values: string[] = [];
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) values.push(String(v));
    return values;
  }
  const chars = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
  if (chars) {
    const from = (chars[1] as string).charCodeAt(0);
    const to = (chars[2] as string).charCodeAt(0);
    const values: string[] = [];
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? 1 : -1) values.push(escapeLiteral(String.fromCharCode(v)));
    return values;
  }
  return null;
}

/**
 * Why a glob could match something outside the directory it starts in, or null when it cannot: a segment
 * that starts with `.` or `[` may match `..`, and `..` after a glob segment climbs a variable number of levels.
 */
export function findEscapingGlob(pattern: string): string | null {
  let seenGlob = false;
  for (const segment of pattern.split('/')) {
    const glob = hasGlob(segment);
    if (glob && (segment.startsWith('.') || segment.startsWith('['))) return `the glob segment "${segment}" can match ".."`;
    if (seenGlob && segment === '..') return 'a ".." after a glob segment climbs out of the matched directories';
    seenGlob ||= glob;
  }
  return null;
}

/** The directory part of a glob before its first glob segment, and whether the glob is a bare `*`-like last segment. */
export function splitGlob(pattern: string): { base: string; wholeDirectory: boolean } {
  const segments = pattern.split('/');
  const index = segments.findIndex((s) => hasGlob(s));
  const base = unescapePattern(segments.slice(0, index).join('/'));
  const last = index === segments.length - 1 ? (segments[index] as string) : '';
  return { base: base === '' && pattern.startsWith('/') ? '/' : base || '.', wholeDirectory: /^\.?\*+$/.test(last) };
}
