import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveReadablePath, resolveWorkspacePath, type PathScope } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../../runtime/fs/index.js';
import { outcome } from './outcome.js';
import { addEntries, createTempTree, removeTempTree } from './temp-tree.js';

let base = '';
const fs = createNodeGuardFs();

beforeAll(() => {
  base = createTempTree({
    'ws/file.txt': 'x',
    'ws/.ssh/id': 'x',
    'readroot/doc.txt': 'x',
    'readroot-evil/doc.txt': 'x',
    'outside/secret.txt': 'x',
  });
  addEntries(base, {
    'ws/to-readroot': { link: '../readroot' },
    'ws/to-outside': { link: '../outside/secret.txt' },
    'ws/proc-root': { link: '/proc/self/root' },
    'readroot/to-outside': { link: '../outside' },
    'readroot/to-ws': { link: '../ws' },
    'link-to-ws': { link: 'ws' },
    'link-to-ws-evil': { link: 'readroot-evil' },
    'link-to-readroot': { link: 'readroot' },
    'link-loop': { link: 'link-loop' },
  });
});
afterAll(() => removeTempTree(base));

function read(input: string, overrides: Partial<PathScope> = {}) {
  const scope: PathScope = {
    workspaceRoot: path.join(base, 'ws'),
    readRoots: [path.join(base, 'readroot')],
    allowOutsideWorkspace: false,
    excludedPaths: ['.git'],
    ...overrides,
  };
  const result = outcome(() => resolveReadablePath(input.replace('BASE', base), scope, path.posix, fs));
  return result.path === undefined ? result.code : path.relative(base, result.path);
}

describe('resolveReadablePath', () => {
  it.each([
    ['a workspace file', 'file.txt', 'ws/file.txt'],
    ['the blocklist does not apply to reads', '.ssh/id', 'ws/.ssh/id'],
    ['a file in a read root', 'BASE/readroot/doc.txt', 'readroot/doc.txt'],
    ['a read root through a workspace link', 'to-readroot/doc.txt', 'readroot/doc.txt'],
    ['the workspace through a read-root link', 'BASE/readroot/to-ws/file.txt', 'ws/file.txt'],
    ['a prefix twin of the read root', 'BASE/readroot-evil/doc.txt', 'NOT_READABLE'],
    ['lexically outside every root', '../outside/secret.txt', 'NOT_READABLE'],
    ['a workspace link to outside', 'to-outside', 'NOT_READABLE'],
    ['a read-root link to outside', 'BASE/readroot/to-outside/secret.txt', 'NOT_READABLE'],
    ['a link to /proc/self/root then outside', 'proc-root/etc/passwd', 'NOT_READABLE'],
    ['a missing file inside', 'nope.txt', 'ws/nope.txt'],
    ['the workspace spelled through a link to its root', 'BASE/link-to-ws/file.txt', 'ws/file.txt'],
    ['a read root spelled through a link to it', 'BASE/link-to-readroot/doc.txt', 'readroot/doc.txt'],
    ['a link out, spelled through the root link', 'BASE/link-to-ws/to-outside', 'NOT_READABLE'],
    ['a prefix twin through a link', 'BASE/link-to-ws-evil/doc.txt', 'NOT_READABLE'],
    ['/proc/self/root spelling of the workspace', `/proc/self/root/BASE/ws/file.txt`, 'NOT_READABLE'],
    ['a link loop outside', 'BASE/link-loop/x', 'NOT_READABLE'],
    ['a NUL byte', 'file.txt\0', 'INVALID_ARGS'],
  ])('%s', (_name, input, expected) => {
    expect(read(input)).toBe(expected);
  });

  it.each([
    ['a file outside', 'BASE/outside/secret.txt', 'outside/secret.txt'],
    ['a link to outside', 'to-outside', 'outside/secret.txt'],
    ['/proc/self/root detour', `/proc/self/root/etc/hostname`, 'NOT_READABLE'],
    ['/proc/self/environ', '/proc/self/environ', 'NOT_READABLE'],
    ['/dev/fd/0', '/dev/fd/0', 'NOT_READABLE'],
    ['/dev/stdin', '/dev/stdin', 'NOT_READABLE'],
  ])('with allowOutsideWorkspace: %s', (_name, input, expected) => {
    expect(read(input, { allowOutsideWorkspace: true })).toBe(expected);
  });

  it('tells nothing about the outside when a path spelled outside resolves outside', () => {
    const scope: PathScope = { workspaceRoot: path.join(base, 'ws'), readRoots: [], allowOutsideWorkspace: false, excludedPaths: [] };
    expect(() => resolveReadablePath(path.join(base, 'link-to-ws-evil/doc.txt'), scope, path.posix, fs)).toThrow(/path \S*link-to-ws-evil\/doc\.txt is outside/);
    expect(() => resolveReadablePath(path.join(base, 'link-to-ws-evil/doc.txt'), scope, path.posix, fs)).not.toThrow(/readroot-evil/);
  });

  it('names the path and the roots when refusing', () => {
    expect(read('../outside/secret.txt')).toBe('NOT_READABLE');
    expect(() => resolveReadablePath('../outside/secret.txt', { workspaceRoot: path.join(base, 'ws'), readRoots: [path.join(base, 'readroot')], allowOutsideWorkspace: false, excludedPaths: [] }, path.posix, fs))
      .toThrow(new RegExp(`\\.\\./outside/secret\\.txt.*outside the workspace and every read root.*readroot`));
  });
});

describe('resolveWorkspacePath (lexical)', () => {
  const scope: PathScope = { workspaceRoot: '/ws', readRoots: [], allowOutsideWorkspace: false, excludedPaths: [] };
  it.each([
    ['relative', 'a/b.txt', '/ws/a/b.txt'],
    ['absolute inside', '/ws/a/../b.txt', '/ws/b.txt'],
    ['the root with a trailing slash', '/ws/', '/ws'],
    ['./ prefix', './a', '/ws/a'],
    ['prefix twin', '/ws-evil/x', 'OUTSIDE_WORKSPACE'],
    ['climb out', 'a/../../x', 'OUTSIDE_WORKSPACE'],
    ['absolute elsewhere', '/etc/passwd', 'OUTSIDE_WORKSPACE'],
    ['backslashes are ordinary characters on posix', '..\\..\\x', '/ws/..\\..\\x'],
    ['empty', '', 'INVALID_ARGS'],
  ])('%s', (_name, input, expected) => {
    const result = outcome(() => resolveWorkspacePath(input, scope, path.posix));
    expect(result.path ?? result.code).toBe(expected);
  });

  it('allows outside when asked, still normalized', () => {
    expect(resolveWorkspacePath('../etc//passwd', { ...scope, allowOutsideWorkspace: true }, path.posix)).toBe('/etc/passwd');
  });
});
