import { execFileSync } from 'node:child_process';
import { readdirSync, renameSync, symlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { grepFiles } from '../../workers/walk/grep-files.js';
import { loadLibcIo } from '../../workers/walk/libc-io.js';
import { TextReader } from '../../workers/walk/read-text-file.js';
import { nodeIo, type WalkIo } from '../../workers/walk/walk-io.js';
import { walkFiles } from '../../workers/walk/walk-tree.js';
import { createTempTree, type TempTree } from './temp-tree.js';

// Swaps made mid-walk, at a chosen file, through the walk's own callback: the moment after the walk listed or
// resolved something and before it opens it (the race window), hit every time. Whatever is swapped in leads outside,
// where every file says SECRET; nothing outside may be read, and what was not swapped is still read (the near miss).
const libcIo = loadLibcIo();
const IOS: WalkIo[] = [nodeIo, ...(libcIo === undefined ? [] : [libcIo])];

const TREE = {
  'ws/a.txt': 'a\n',
  'ws/b.txt': 'b\n',
  'ws/sub/inner/c.txt': 'c\n',
  'ws/sub/x.txt': 'x\n',
  'ws/to-deep': { link: '../extra/deep' },
  'ws/to-file': { link: '../extra/f.txt' },
  'ws/z.txt': 'z\n',
  'extra/deep/d.txt': 'd\n',
  'extra/f.txt': 'f\n',
  'outside/b.txt': 'SECRET b\n',
  'outside/inner/c.txt': 'SECRET c\n',
  'outside/deep/d.txt': 'SECRET d\n',
  'outside/f.txt': 'SECRET f\n',
  'outside/x.txt': 'SECRET x\n',
} as const;

let tree: TempTree | undefined;
afterEach(() => tree?.remove());

/** Replaces `relative` (file or directory) with a symlink to `target`, keeping the original aside. */
function swapForLink(t: TempTree, relative: string, target: string): void {
  renameSync(t.path(relative), t.path(`${relative}.aside`));
  symlinkSync(t.path(target), t.path(relative));
}

const SWAPS = [
  { rule: 'a listed file swapped for a link to an outside file', at: 'b.txt', swap: ['ws/b.txt', 'outside/b.txt'], lost: ['b.txt'] },
  { rule: 'a listed subdirectory swapped for a link to an outside directory', at: 'b.txt', swap: ['ws/sub', 'outside'], lost: ['sub/inner/c.txt', 'sub/x.txt'] },
  { rule: 'a pending subdirectory reached through a parent swapped for a link', at: 'sub/x.txt', swap: ['ws/sub', 'outside'], lost: ['sub/inner/c.txt'] },
  { rule: "a linked directory's target swapped for a link after it was resolved", at: 'z.txt', swap: ['extra/deep', 'outside/deep'], lost: ['to-deep/d.txt'] },
  { rule: "a linked directory's parent swapped for a link after it was resolved", at: 'z.txt', swap: ['extra', 'outside'], lost: ['to-deep/d.txt'] },
  { rule: "a linked file's target swapped for a link between resolving and opening", at: 'to-file', swap: ['extra/f.txt', 'outside/f.txt'], lost: ['to-file'] },
  { rule: "a linked file's parent swapped for a link between resolving and opening", at: 'to-file', swap: ['extra', 'outside'], lost: ['to-file', 'to-deep/d.txt'] },
] as const;

const ALL = ['a.txt', 'b.txt', 'sub/x.txt', 'sub/inner/c.txt', 'to-file', 'z.txt', 'to-deep/d.txt'];

describe.each(IOS.map((io) => ({ name: io.name, io })))('$name io', ({ io }) => {
  function walkSwapping(at: string | undefined, swap: readonly [string, string] | undefined): Record<string, string> {
    const t = createTempTree(TREE);
    tree = t;
    const reader = new TextReader(io, 1000);
    const read: Record<string, string> = {};
    walkFiles(t.path('ws'), { scopeRoots: [t.path('ws'), t.path('extra')], includeIgnored: false, io }, (rel, source, key) => {
      if (rel === at && swap !== undefined) swapForLink(t, swap[0], swap[1]);
      const fd = source.openFile(key);
      const text = fd < 0 ? undefined : reader.read(fd)?.toString();
      if (text !== undefined) read[rel] = text;
      return true;
    });
    return read;
  }

  it('reads every file when nothing is swapped (the near miss)', () => {
    expect(Object.keys(walkSwapping(undefined, undefined)).sort()).toEqual([...ALL].sort());
  });

  it.each(SWAPS)('never reads outside through $rule', ({ at, swap, lost }) => {
    const read = walkSwapping(at, swap);
    expect(Object.values(read).filter((text) => text.includes('SECRET'))).toEqual([]);
    expect(Object.keys(read).sort()).toEqual(ALL.filter((rel) => !(lost as readonly string[]).includes(rel)).sort());
  });
});

describe('descriptors', () => {
  function openFds(): number {
    return readdirSync('/proc/self/fd').length;
  }

  it.each([
    { rule: 'a full walk', maxResults: 100 },
    { rule: 'a walk stopped early at maxResults', maxResults: 1 },
  ])('are all closed after $rule, over links, a dangling link and a FIFO', ({ maxResults }) => {
    const t = createTempTree({ ...TREE, 'ws/dangling': { link: 'nowhere' } });
    tree = t;
    execFileSync('mkfifo', [t.path('ws/fifo')]);
    const before = openFds();
    const outcome = grepFiles({ root: t.path('ws'), pattern: '\\w', maxResults, scope: { roots: [t.path('ws'), t.path('extra')] } });
    expect(outcome.matches.length).toBe(maxResults === 1 ? 1 : ALL.length);
    expect(openFds()).toBe(before);
  });
});
