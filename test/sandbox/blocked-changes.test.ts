import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { diffBlockedSnapshots, topLevelStubs, type BlockedSnapshot } from '../../src/sandbox/blocked-changes.js';
import { scanBlocked } from '../../runtime/sandbox/blocked-scan.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const snap = (entries: Record<string, string>): BlockedSnapshot => ({ paths: new Map(Object.entries(entries)), truncated: false });

describe('diffBlockedSnapshots', () => {
  it.each<[string, Record<string, string>, Record<string, string>, string[], { path: string; change: string }[]]>([
    ['nothing changed', { '/w/.ssh': '1#a' }, { '/w/.ssh': '1#a' }, [], []],
    ['a new path', {}, { '/w/x/.ssh': '2#f' }, [], [{ path: '/w/x/.ssh', change: 'created' }]],
    ['a replaced path (another inode)', { '/w/.git/hooks': '1#a' }, { '/w/.git/hooks': '9#b' }, [], [{ path: '/w/.git/hooks', change: 'created' }]],
    ['a path changed in place', { '/w/.envrc': '1#f:1' }, { '/w/.envrc': '1#f:2' }, [], [{ path: '/w/.envrc', change: 'changed' }]],
    ['a stub left empty is not a change', {}, { '/w/.ssh': '5#empty-dir' }, ['/w/.ssh'], []],
    ['a stub with content is', {}, { '/w/.ssh': '5#k=f' }, ['/w/.ssh'], [{ path: '/w/.ssh', change: 'created' }]],
    ['a removed path is not a write', { '/w/.ssh': '1#a' }, {}, [], []],
  ])('%s', (_name, before, after, stubs, expected) => {
    expect(diffBlockedSnapshots(snap(before), snap(after), new Set(stubs))).toEqual(expected);
  });
});

describe('topLevelStubs', () => {
  it('covers missing single-segment entries and .git/hooks only under an existing .git', () => {
    const exists = (p: string): boolean => p === '/w/.bashrc' || p === '/w/.git';
    const stubs = topLevelStubs('/w', exists, (p) => p === '/w/.git');
    expect(stubs).toContain('/w/.ssh');
    expect(stubs).toContain('/w/.git/hooks');
    expect(stubs).not.toContain('/w/.bashrc');
    expect(stubs).not.toContain('/w/.git/config');
    expect(topLevelStubs('/w', () => false, () => false)).not.toContain('/w/.git/hooks');
  });

  it('takes the list as a parameter', () => {
    expect(topLevelStubs('/w', () => false, () => false, [{ segments: ['.npmrc'], depth: 'any', why: 'test' }])).toEqual(['/w/.npmrc']);
  });

  // A `**` entry names no one path: a stub would be a literal `**` directory (the walk finds such paths after).
  it('makes no stub for an entry with **, even where its parent exists', () => {
    const list = [{ segments: ['a', '**'], depth: 'any' as const, why: 'test' }, { segments: ['**', 'secrets'], depth: 'any' as const, why: 'test' }];
    expect(topLevelStubs('/w', (p) => p === '/w/a', (p) => p === '/w/a', list)).toEqual([]);
    expect(topLevelStubs('/w', (p) => p === '/w/.git', (p) => p === '/w/.git')).not.toContain('/w/.git/modules/**/hooks');
  });
});

describe('scanBlocked on a real tree', () => {
  let tree: TempTree;
  beforeEach(() => {
    tree = makeTempTree('tw-scan', { 'src/a.ts': 'x', 'deep/a/b/c/.ssh/id': 'k', '.git/hooks/pre-commit.sample': '#', '.git/config': '[core]', 'sub/.git/config': '[core]', 'Sub/.GIT/HOOKS/x': 'x', 'secret/t': 's' });
  });
  afterEach(() => tree.cleanup());

  it('finds blocked paths at any depth, case-folded, plus excluded ones, but not the top .git/config', () => {
    const found = [...scanBlocked(tree.root, DEFAULT_BLOCKLIST, [tree.at('secret')]).paths.keys()].map((p) => p.slice(tree.root.length + 1)).sort();
    expect(found).toEqual(['.git/hooks', 'Sub/.GIT/HOOKS', 'deep/a/b/c/.ssh', 'secret', 'sub/.git/config']);
  });

  it('does not follow a symlink out of the workspace', () => {
    const outside = makeTempTree('tw-scan-out', { '.ssh/id': 'k' });
    try {
      symlinkSync(outside.root, tree.at('link'));
      expect([...scanBlocked(tree.root, DEFAULT_BLOCKLIST, []).paths.keys()].some((p) => p.includes('link/'))).toBe(false);
    } finally {
      outside.cleanup();
    }
  });

  it('sees a write inside a blocked directory and a replacement after mv', () => {
    const before = scanBlocked(tree.root, DEFAULT_BLOCKLIST, []);
    writeFileSync(tree.at('deep/a/b/c/.ssh/authorized_keys'), 'k');
    renameSync(tree.at('.git'), tree.at('.gitx'));
    mkdirSync(tree.at('.git/hooks'), { recursive: true });
    writeFileSync(tree.at('.git/hooks/pre-commit'), 'evil');
    const changes = diffBlockedSnapshots(before, scanBlocked(tree.root, DEFAULT_BLOCKLIST, []));
    expect(changes).toEqual([
      { path: tree.at('.git/hooks'), change: 'created' },
      { path: tree.at('deep/a/b/c/.ssh'), change: 'changed' },
    ]);
  });

  it('stops at its bound and says so', () => {
    expect(scanBlocked(tree.root, DEFAULT_BLOCKLIST, [], 2).truncated).toBe(true);
    expect(scanBlocked(tree.root, DEFAULT_BLOCKLIST, []).truncated).toBe(false);
  });
});
