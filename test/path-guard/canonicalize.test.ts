import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SYMLINK_HOPS, canonicalizePath } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../../runtime/fs/index.js';
import { outcome } from './outcome.js';
import { addEntries, createTempTree, removeTempTree, type TreeEntry } from './temp-tree.js';

let base = '';
const fs = createNodeGuardFs();

function chain(prefix: string, links: number): Record<string, TreeEntry> {
  const entries: Record<string, TreeEntry> = {};
  for (let i = 1; i <= links; i += 1) entries[`${prefix}${i}`] = { link: i === links ? 'target.txt' : `${prefix}${i + 1}` };
  return entries;
}

beforeAll(() => {
  base = createTempTree({ 'target.txt': 'x', 'dir/sub/file.txt': 'x', 'other/file.txt': 'x' });
  addEntries(base, {
    ...chain('eight', MAX_SYMLINK_HOPS),
    ...chain('nine', MAX_SYMLINK_HOPS + 1),
    'self': { link: 'self' },
    'ping': { link: 'pong' },
    'pong': { link: 'ping' },
    'grow': { link: 'grow/more' },
    'dir/up': { link: '..' },
    'dir/cycle': { link: '../dir/cycle/x' },
    'dangling': { link: 'missing/deeper.txt' },
    'abs-dangling': { link: path.join(base, 'gone/file.txt') },
    'to-sub': { link: 'dir/sub' },
    'dir/sub/rel-up': { link: '../../other' },
  });
});
afterAll(() => removeTempTree(base));

function canonical(relative: string) {
  const result = outcome(() => canonicalizePath(`${base}/${relative}`, path.posix, fs));
  return result.path === undefined ? result.code : path.relative(base, result.path);
}

describe('canonicalizePath', () => {
  it.each([
    ['a plain file', 'target.txt', 'target.txt'],
    [`a chain of exactly ${MAX_SYMLINK_HOPS} links`, 'eight1', 'target.txt'],
    [`a chain of ${MAX_SYMLINK_HOPS + 1} links`, 'nine1', 'SYMLINK_LOOP'],
    ['the ninth chain entered at its second link', 'nine2', 'target.txt'],
    ['a link to itself', 'self', 'SYMLINK_LOOP'],
    ['a two-link loop', 'ping/x', 'SYMLINK_LOOP'],
    ['a link that grows into itself', 'grow', 'SYMLINK_LOOP'],
    ['a cycle through a real directory', 'dir/cycle', 'SYMLINK_LOOP'],
    ['a link to .. used a few times', 'dir/up/dir/up/dir/sub/file.txt', 'dir/sub/file.txt'],
    ['a dangling link resolves to its target', 'dangling', 'missing/deeper.txt'],
    ['an absolute dangling link', 'abs-dangling', 'gone/file.txt'],
    ['a missing tail is appended', 'dir/new/a/b.txt', 'dir/new/a/b.txt'],
    ['a relative target resolves against the link directory', 'dir/sub/rel-up/file.txt', 'other/file.txt'],
    ['.. after a link climbs from the target (kernel semantics)', 'to-sub/../file-in-dir', 'dir/file-in-dir'],
    ['.. in a missing tail climbs back into real directories', 'dir/missing/../../to-sub/file.txt', 'dir/sub/file.txt'],
    ['a component under a file is kept as missing', 'target.txt/x', 'target.txt/x'],
  ])('%s', (_name, input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  it('refuses a relative input', () => {
    expect(outcome(() => canonicalizePath('relative/x', path.posix, fs)).code).toBe('INVALID_ARGS');
  });

  it('names the link where a loop closes', () => {
    expect(() => canonicalizePath(path.join(base, 'ping'), path.posix, fs)).toThrow(/ping.*loops back/);
    expect(() => canonicalizePath(path.join(base, 'nine1'), path.posix, fs)).toThrow(new RegExp(`more than ${MAX_SYMLINK_HOPS} symlinks`));
  });
});
