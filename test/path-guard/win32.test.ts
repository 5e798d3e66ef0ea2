import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, resolveForWrite, resolveReadablePath, resolveWorkspacePath, type GuardFs, type PathScope } from '../../src/path-guard/index.js';
import { outcome } from './outcome.js';

const win = path.win32;

/** A case-insensitive in-memory win32 filesystem: `dir`, `file` or a link target per path. */
function createFakeFs(entries: Record<string, 'dir' | 'file' | { link: string }>): GuardFs {
  const table = new Map(Object.entries(entries).map(([p, e]) => [p.toLowerCase(), e]));
  const get = (p: string) => table.get(win.normalize(p).toLowerCase());
  return {
    lstat: (p) => {
      const entry = get(p);
      if (entry === undefined) return undefined;
      return { isSymbolicLink: () => typeof entry === 'object', isDirectory: () => entry === 'dir' };
    },
    readlink: (p) => {
      const entry = get(p);
      if (typeof entry !== 'object') throw new Error(`EINVAL: not a link ${p}`);
      return entry.link;
    },
  };
}

const fs = createFakeFs({
  'C:\\ws': 'dir',
  'C:\\ws\\sub': 'dir',
  'C:\\ws\\sub\\file.txt': 'file',
  'C:\\ws\\.git': 'dir',
  'C:\\ws\\.git\\hooks': 'dir',
  'C:\\ws\\out': { link: 'D:\\evil' },
  'C:\\ws\\rel-in': { link: '..\\ws\\sub' },
  'C:\\ws\\rel-out': { link: '..\\elsewhere' },
  'C:\\ws\\rooted': { link: '\\evil' },
  'C:\\ws\\verbatim-in': { link: '\\\\?\\C:\\ws\\sub' },
  'C:\\ws\\verbatim-out': { link: '\\\\?\\D:\\x' },
  'C:\\ws\\unc-out': { link: '\\\\server\\share\\x' },
  'C:\\ws\\to-hooks': { link: 'C:/ws/.GIT/Hooks' },
  'C:\\ws\\volume': { link: '\\\\?\\Volume{1234}\\x' },
});

const scope: PathScope = { workspaceRoot: 'C:\\ws', readRoots: ['E:\\skills'], allowOutsideWorkspace: false, excludedPaths: ['.git'] };

describe('win32 lexical resolution', () => {
  it.each([
    ['relative with backslashes', 'sub\\a.ts', 'C:\\ws\\sub\\a.ts'],
    ['relative with forward slashes', 'sub/a.ts', 'C:\\ws\\sub\\a.ts'],
    ['mixed separators', 'sub/x\\y', 'C:\\ws\\sub\\x\\y'],
    ['absolute in another case', 'c:\\WS\\Sub\\a.ts', 'c:\\WS\\Sub\\a.ts'],
    ['forward-slash absolute', 'C:/ws/a', 'C:\\ws\\a'],
    ['verbatim prefix inside', '\\\\?\\C:\\ws\\a', 'C:\\ws\\a'],
    ['device prefix inside', '\\\\.\\C:\\ws\\a', 'C:\\ws\\a'],
    ['another drive', 'D:\\ws\\a', 'OUTSIDE_WORKSPACE'],
    ['verbatim another drive', '\\\\?\\D:\\ws\\a', 'OUTSIDE_WORKSPACE'],
    ['prefix twin', 'C:\\ws-evil\\a', 'OUTSIDE_WORKSPACE'],
    ['prefix twin .bak', 'C:\\ws.bak\\a', 'OUTSIDE_WORKSPACE'],
    ['climb out with mixed separators', 'sub/..\\..\\x', 'OUTSIDE_WORKSPACE'],
    ['rooted without a drive', '\\Windows\\x', 'OUTSIDE_WORKSPACE'],
    ['UNC path', '\\\\server\\share\\ws\\a', 'OUTSIDE_WORKSPACE'],
    ['verbatim UNC path', '\\\\?\\UNC\\server\\share\\a', 'OUTSIDE_WORKSPACE'],
    ['drive-relative', 'C:sub\\a', 'INVALID_ARGS'],
    ['a volume GUID path', '\\\\?\\Volume{1234}\\a', 'INVALID_ARGS'],
    ['a physical drive', '\\\\.\\PhysicalDrive0', 'INVALID_ARGS'],
    ['an alternate data stream', 'a.txt::$DATA', 'INVALID_ARGS'],
    ['a stream on a directory name', '.git\\hooks::$INDEX_ALLOCATION\\x', 'INVALID_ARGS'],
    ['reserved name CON', 'CON', 'INVALID_ARGS'],
    ['reserved name nul.txt', 'sub\\nul.txt', 'INVALID_ARGS'],
    ['reserved name COM1', 'com1', 'INVALID_ARGS'],
    ['8.3 short name', 'GIT~1\\hooks\\x', 'INVALID_ARGS'],
    ['trailing dots climb further on Windows', 'sub\\...\\..\\x', 'INVALID_ARGS'],
    ['trailing space', 'sub \\x', 'INVALID_ARGS'],
    ['trailing dot', '.ssh.\\x', 'INVALID_ARGS'],
    ['near miss: console.txt', 'console.txt', 'C:\\ws\\console.txt'],
    ['near miss: com10', 'com10', 'C:\\ws\\com10'],
    ['near miss: tilde without digits', 'backup~old\\x', 'C:\\ws\\backup~old\\x'],
    ['near miss: dots inside a name', 'a..b\\.x.y', 'C:\\ws\\a..b\\.x.y'],
    ['NUL byte', 'a\0b', 'INVALID_ARGS'],
  ])('%s', (_name, input, expected) => {
    const result = outcome(() => resolveWorkspacePath(input, scope, win));
    expect(result.path ?? result.code).toBe(expected);
  });

  it.each([
    ['UNC root: the same share in another case', '\\\\SERVER\\Share\\ws\\a', 'ok'],
    ['UNC root: another share', '\\\\server\\share2\\ws\\a', 'OUTSIDE_WORKSPACE'],
    ['UNC root: prefix twin', '\\\\server\\share\\ws2\\a', 'OUTSIDE_WORKSPACE'],
    ['UNC root: relative', 'a\\b', 'ok'],
  ])('%s', (_name, input, expected) => {
    expect(outcome(() => resolveWorkspacePath(input, { ...scope, workspaceRoot: '\\\\server\\share\\ws' }, win)).code).toBe(expected);
  });
});

describe('win32 resolution through a fake filesystem', () => {
  it.each([
    ['a plain new file', 'sub\\new.txt', 'C:\\ws\\sub\\new.txt'],
    ['a link to another drive', 'out\\x', 'OUTSIDE_WORKSPACE'],
    ['a relative link staying inside', 'rel-in\\file.txt', 'C:\\ws\\sub\\file.txt'],
    ['a relative link climbing out', 'rel-out\\x', 'OUTSIDE_WORKSPACE'],
    ['a drive-less rooted link target', 'rooted\\x', 'OUTSIDE_WORKSPACE'],
    ['a verbatim link target inside', 'verbatim-in\\file.txt', 'C:\\ws\\sub\\file.txt'],
    ['a verbatim link target outside', 'verbatim-out', 'OUTSIDE_WORKSPACE'],
    ['a UNC link target', 'unc-out\\y', 'OUTSIDE_WORKSPACE'],
    ['a link to a volume GUID', 'volume', 'INVALID_ARGS'],
    ['.SSH in upper case', 'sub\\.SSH\\id', 'BLOCKED_PATH'],
    ['.Git\\Hooks in mixed case', '.Git\\Hooks\\pre-commit', 'BLOCKED_PATH'],
    ['a link to .GIT/Hooks', 'to-hooks\\x', 'BLOCKED_PATH'],
    ['excluded .git in upper case', '.GIT\\config', 'BLOCKED_PATH'],
    ['near miss .gitignore', '.gitignore', 'C:\\ws\\.gitignore'],
    ['a read root on another drive', 'E:\\skills\\x', 'OUTSIDE_WORKSPACE'],
  ])('write: %s', (_name, input, expected) => {
    const result = outcome(() => resolveForWrite(input, scope, win, fs));
    expect(result.path ?? result.code).toBe(expected);
  });

  it.each([
    ['a read root on another drive', 'E:\\skills\\x', 'E:\\skills\\x'],
    ['a read root in another case', 'e:\\SKILLS\\x', 'e:\\SKILLS\\x'],
    ['a prefix twin of the read root', 'E:\\skills2\\x', 'NOT_READABLE'],
    ['a link to another drive', 'out\\x', 'NOT_READABLE'],
  ])('read: %s', (_name, input, expected) => {
    const result = outcome(() => resolveReadablePath(input, scope, win, fs));
    expect(result.path ?? result.code).toBe(expected);
  });
});

describe('isInside', () => {
  it.each([
    ['/ws/a', '/ws', path.posix, true],
    ['/ws', '/ws', path.posix, true],
    ['/ws/', '/ws', path.posix, true],
    ['/ws-evil', '/ws', path.posix, false],
    ['/ws.bak/a', '/ws', path.posix, false],
    ['/ws2', '/ws', path.posix, false],
    ['/WS/a', '/ws', path.posix, false],
    ['/', '/ws', path.posix, false],
    ['/anything', '/', path.posix, true],
    ['relative/ws/a', '/ws', path.posix, false],
    ['C:\\WS\\a', 'c:\\ws', win, true],
    ['C:/ws/a', 'C:\\ws', win, true],
    ['D:\\ws\\a', 'C:\\ws', win, false],
    ['C:\\ws-evil', 'C:\\ws', win, false],
    ['\\\\?\\C:\\ws\\a', 'C:\\ws', win, true],
    ['\\\\srv\\share\\a', '\\\\SRV\\SHARE', win, true],
    ['\\\\srv\\share2\\a', '\\\\srv\\share', win, false],
    // containment folds ASCII only: the Kelvin sign is not k for NTFS, so C:\wK (Kelvin) is not C:\wk
    ['C:\\w\u212A\\a', 'C:\\wk', win, false],
    ['C:\\wS\\a', 'C:\\w\u017F', win, false],
  ])('%s in %s', (child, root, flavour, expected) => {
    expect(isInside(child, root, flavour)).toBe(expected);
  });
});
