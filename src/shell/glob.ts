import { posix } from 'node:path';
import { hasGlob, unescapePattern } from './patterns.js';
import type { ShellFs } from './types.js';

/** Past this many matches (or directories read) a glob asks rather than being checked match by match. */
export const MAX_GLOB_MATCHES = 2000;

/**
 * Expands a glob pattern from `cwd` as bash does with its default options (no dotglob, no globstar, no
 * extglob, nullglob off): each matching path, relative or absolute as the pattern is (a literal last segment is
 * kept even when absent); an empty list when nothing matches (bash then passes the pattern itself); null past
 * {@link MAX_GLOB_MATCHES}. Every directory bash lists on the way, and every link it stats to descend, is pushed
 * to `listed`.
 */
export function expandGlob(fs: ShellFs, cwd: string, pattern: string, listed: string[] = []): string[] | null {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  if (absolute) segments.shift();
  let found: string[] = [absolute ? '/' : ''];
  let work = 0;
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const next: string[] = [];
    for (const prefix of found) {
      const dir = posix.resolve(cwd, prefix === '' ? '.' : prefix);
      if (!hasGlob(segment)) {
        // Kept even when absent: a file the command line creates before the glob is expanded may be there by then.
        next.push(join(prefix, unescapePattern(segment)));
        continue;
      }
      const names = fs.list(dir);
      listed.push(dir);
      if (++work > MAX_GLOB_MATCHES) return null;
      if (names === null) continue;
      const matcher = segmentMatcher(segment);
      for (const name of names) {
        if (!matcher(name)) continue;
        const candidate = join(prefix, name);
        // bash stats a match to see whether it is a directory to descend: through a link, that reads where it leads.
        if (!last && fs.kind(posix.resolve(cwd, candidate)) === 'link') listed.push(posix.resolve(cwd, candidate));
        if (!last && !isDirectory(fs, posix.resolve(cwd, candidate))) continue;
        next.push(candidate);
        if (next.length > MAX_GLOB_MATCHES) return null;
      }
    }
    found = next;
  }
  return found.filter((p) => p !== '' && p !== '/').sort();
}

function join(prefix: string, name: string): string {
  return prefix === '' ? name : prefix.endsWith('/') ? `${prefix}${name}` : `${prefix}/${name}`;
}

function isDirectory(fs: ShellFs, p: string): boolean {
  for (let i = 0, current = p; i < 40; i++) {
    const kind = fs.kind(current);
    if (kind !== 'link') return kind === 'dir';
    const link = fs.readlink(current);
    if (link === null) return false;
    current = posix.resolve(posix.dirname(current), link);
  }
  return false;
}

/** A matcher for one segment: `*`, `?`, `[...]` (`!`/`^` negate), backslash escapes; a leading `.` must be explicit. */
export function segmentMatcher(segment: string): (name: string) => boolean {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '\\') {
      source += escapeRegex(segment[++i] ?? '\\');
    } else if (c === '*') {
      source += '.*';
    } else if (c === '?') {
      source += '.';
    } else if (c === '[') {
      const close = bracketEnd(segment, i);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      source += `[${negate ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/\[:(\w+):\]/g, (_, cls: string) => POSIX_CLASSES[cls] ?? '')}]`;
      i = close;
    } else {
      source += escapeRegex(c);
    }
  }
  const regex = new RegExp(`^${source}$`, 's');
  const dotExplicit = segment.startsWith('.');
  return (name) => (dotExplicit || !name.startsWith('.')) && regex.test(name);
}

const POSIX_CLASSES: Record<string, string> = { alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f' };

function bracketEnd(segment: string, open: number): number {
  let i = open + 1;
  if (segment[i] === '!' || segment[i] === '^') i++;
  if (segment[i] === ']') i++;
  for (; i < segment.length; i++) {
    if (segment[i] === '[' && segment[i + 1] === ':') {
      const end = segment.indexOf(':]', i + 2);
      if (end !== -1) i = end + 1;
    } else if (segment[i] === ']') return i;
  }
  return -1;
}

function escapeRegex(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
