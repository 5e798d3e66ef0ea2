import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BARE_REPOSITORY_MARKERS } from '../../src/path-guard/bare-repository.js';
import {
  DEFAULT_BLOCKLIST,
  isResolvedPathReadable,
  isResolvedPathWritable,
  resolveForWrite,
  resolveReadablePath,
  type GuardFs,
  type PathScope,
} from '../../src/path-guard/index.js';

// A kernel-resolved path has no link on it: the full resolvers, seeing no link, are the reference for the fast checks.
// Every path is a directory, except that no directory holds a repository's markers: the differential is about the
// rules on names, and the embedded bare repository rule needs the disk (resolveForWrite applies it before the open).
const NO_LINKS: GuardFs = {
  lstat: (p) => (BARE_REPOSITORY_MARKERS.includes(p.split(/[\\/]/).pop() ?? '') ? undefined : { isSymbolicLink: () => false, isDirectory: () => true }),
  readlink: (p) => {
    throw new Error(`${p} is not a link`);
  },
};

function passes(check: () => string): boolean {
  try {
    return check() !== '';
  } catch {
    return false;
  }
}

const SEGMENTS = ['ws', 'ws-evil', 'vendor', 'shared', 'src', 'a.ts', '.git', 'hooks', 'config', '.ssh', 'authorized_keys', '.aws', 'secret', 'proc', 'dev', 'fd', 'self', '..', '.', '', 'tmp'];
const paths = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 6 }).map((segments) => `/${segments.join('/')}`);
const scopes = fc.record({
  allowOutsideWorkspace: fc.boolean(),
  readRoots: fc.subarray(['/ws/vendor', '/shared', '/ws']),
  excludedPaths: fc.subarray(['secret', '.git', 'src/a.ts']),
}).map((fields): PathScope => ({ workspaceRoot: '/ws', blocklist: DEFAULT_BLOCKLIST, ...fields }));

describe('checks of kernel-resolved paths', () => {
  it('agree with the full resolvers on every generated path and scope (seeded)', () => {
    fc.assert(
      fc.property(paths, scopes, (p, scope) => {
        expect(isResolvedPathReadable(p, scope, path.posix)).toBe(passes(() => (resolveReadablePath(p, scope, path.posix, NO_LINKS) === p ? p : '')));
        expect(isResolvedPathWritable(p, scope, path.posix)).toBe(passes(() => (resolveForWrite(p, scope, path.posix, NO_LINKS) === p ? p : '')));
      }),
      { seed: 20261202, numRuns: 3000 },
    );
  });

  it('agree with the full resolvers on generated win32 paths, with and without a drive (seeded)', () => {
    const roots = fc.constantFrom('C:\\', 'D:\\', '\\', '\\\\srv\\share\\', '');
    const winPaths = fc.tuple(roots, fc.array(fc.constantFrom('ws', 'WS', 'src', '.git', 'HOOKS', 'hooks', 'secret', '..', '.', ''), { maxLength: 5 })).map(([root, segments]) => root + segments.join('\\'));
    const winScopes = fc.record({ allowOutsideWorkspace: fc.boolean(), readRoots: fc.subarray(['C:\\ws\\vendor', 'D:\\shared']) }).map(
      (fields): PathScope => ({ workspaceRoot: 'C:\\ws', excludedPaths: ['secret'], blocklist: DEFAULT_BLOCKLIST, ...fields }),
    );
    fc.assert(
      fc.property(winPaths, winScopes, (p, scope) => {
        expect(isResolvedPathReadable(p, scope, path.win32)).toBe(passes(() => (resolveReadablePath(p, scope, path.win32, NO_LINKS) === p ? p : '')));
        expect(isResolvedPathWritable(p, scope, path.win32)).toBe(passes(() => (resolveForWrite(p, scope, path.win32, NO_LINKS) === p ? p : '')));
      }),
      { seed: 20261202, numRuns: 3000 },
    );
  });

  const scope: PathScope = { workspaceRoot: '/ws', readRoots: ['/shared'], allowOutsideWorkspace: false, excludedPaths: ['secret'], blocklist: DEFAULT_BLOCKLIST };
  it.each([
    ['/ws/src/a.ts', true, true],
    ['/shared/lib.ts', true, false],
    ['/ws-evil/a.ts', false, false],
    ['/ws/.git/hooks/pre-commit', true, false],
    ['/ws/.gitignore', true, true],
    ['/ws/secret/key', true, false],
    ['/proc/self/environ', false, false],
    ['/ws/../etc/passwd', false, false],
    ['/ws/./a.ts', false, false],
    ['ws/a.ts', false, false],
  ])('%s: readable %s, writable %s', (p, readable, writable) => {
    expect(isResolvedPathReadable(p, scope, path.posix)).toBe(readable);
    expect(isResolvedPathWritable(p, scope, path.posix)).toBe(writable);
  });

  // Found by an attacker's pass: a win32 path without a drive names the current drive, not necessarily the
  // workspace's; the resolvers give it the workspace's drive, so it is not in resolved form and is refused.
  const outsideAllowed: PathScope = { workspaceRoot: 'C:\\ws', readRoots: [], allowOutsideWorkspace: true, excludedPaths: [], blocklist: DEFAULT_BLOCKLIST };
  it.each([
    ['\\etc\\x', false],
    ['\\', false],
    ['C:\\etc\\x', true],
    ['D:\\data\\x', true],
  ])('win32 %s with allowOutsideWorkspace: resolved form %s, as the resolvers say', (p, accepted) => {
    expect(isResolvedPathReadable(p, outsideAllowed, path.win32)).toBe(accepted);
    expect(isResolvedPathWritable(p, outsideAllowed, path.win32)).toBe(accepted);
    expect(passes(() => (resolveReadablePath(p, outsideAllowed, path.win32, NO_LINKS) === p ? p : ''))).toBe(accepted);
  });
});
