import type { PlatformPath } from 'node:path';

/** An absolute path taken apart: its root (`/`, `C:\`, `\\server\share\`) and its non-empty segments. */
export interface SplitPath {
  root: string;
  segments: string[];
}

/** Whether the flavour is `path.win32`. */
export function isWin32(flavour: PlatformPath): boolean {
  return flavour.sep === '\\';
}

/** Splits a path into root and segments, without interpreting `.` or `..` (the caller decides what they mean). */
export function splitPath(p: string, flavour: PlatformPath): SplitPath {
  const root = flavour.parse(p).root;
  const separators = isWin32(flavour) ? /[\\/]+/ : /\/+/;
  const segments = p.slice(root.length).split(separators).filter((s) => s !== '' && s !== '.');
  return { root, segments };
}

// Containment folds ASCII case only: NTFS's upcase table differs from JS case mapping for some characters
// (long s, Kelvin sign, sharp s), and over-folding here would let a different directory count as inside.
function foldForContainment(segment: string, flavour: PlatformPath): string {
  return isWin32(flavour) ? segment.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : segment;
}

function rootKey(root: string, flavour: PlatformPath): string {
  return isWin32(flavour) ? foldForContainment(root.replace(/\//g, '\\'), flavour) : root;
}

const DEVICE_PREFIX = /^[\\/]{2}[?.][\\/]/;

/**
 * Removes a win32 `\\?\` or `\\.\` prefix: `\\?\C:\x` becomes `C:\x`, `\\?\UNC\srv\share` becomes
 * `\\srv\share`. Returns `undefined` for other device-namespace paths (volumes, pipes, physical drives),
 * which the guard does not support. Paths without a prefix, and every posix path, come back unchanged.
 */
export function stripDevicePrefix(p: string, flavour: PlatformPath): string | undefined {
  if (!isWin32(flavour) || !DEVICE_PREFIX.test(p)) return p;
  const rest = p.slice(4);
  if (/^[a-zA-Z]:([\\/]|$)/.test(rest)) return rest;
  if (/^UNC[\\/]/i.test(rest)) return `\\\\${rest.slice(4)}`;
  return undefined;
}

/**
 * Whether `child` is `root` or below it, compared by path segments (never by string prefix), so `/ws-evil`
 * is not inside `/ws`. Case-insensitive (ASCII) for win32. Both paths must be absolute; they are normalized here.
 * Unicode is compared as is: NFC and NFD spellings are different names on Linux, so neither contains the other.
 */
export function isInside(child: string, root: string, flavour: PlatformPath): boolean {
  if (!isWin32(flavour)) return isInsidePosix(normalizePosix(child, flavour), normalizePosix(root, flavour));
  const childPath = stripDevicePrefix(child, flavour);
  const rootPath = stripDevicePrefix(root, flavour);
  if (childPath === undefined || rootPath === undefined) return false;
  const c = splitPath(flavour.normalize(childPath), flavour);
  const r = splitPath(flavour.normalize(rootPath), flavour);
  if (!flavour.isAbsolute(c.root) || rootKey(c.root, flavour) !== rootKey(r.root, flavour)) return false;
  if (r.segments.length > c.segments.length) return false;
  return r.segments.every((s, i) => foldForContainment(s, flavour) === foldForContainment(c.segments[i] ?? '', flavour));
}

// An absolute posix path with no empty, `.` or `..` segment is already what normalize returns (a trailing slash is
// kept by both), so the common case skips the copy; a relative path is refused by isInsidePosix either way.
const POSIX_NEEDS_NORMALIZE = /\/\/|\/\.\.?(?:\/|$)/;

function normalizePosix(p: string, flavour: PlatformPath): string {
  return p.startsWith('/') && !POSIX_NEEDS_NORMALIZE.test(p) ? p : flavour.normalize(p);
}

// On posix, normalized absolute paths have no `.`, `..` or repeated separators, so comparing whole segments is a
// prefix test that ends at a separator: the same answer as the segment walk, without splitting (a hot path).
function isInsidePosix(child: string, root: string): boolean {
  if (!child.startsWith('/') || !root.startsWith('/')) return false;
  const c = child.length > 1 && child.endsWith('/') ? child.slice(0, -1) : child;
  const r = root.length > 1 && root.endsWith('/') ? root.slice(0, -1) : root;
  return r === '/' || c === r || c.startsWith(`${r}/`);
}
