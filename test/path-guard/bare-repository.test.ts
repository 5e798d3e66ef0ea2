import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { bareRepositoryWriteRefusal, BARE_REPOSITORY_CODE_ENTRIES, layoutRuleSkips, namesBareRepositoryEntry, rootRepositoryIsHosts } from '../../src/path-guard/bare-repository.js';
import { resolveForWrite, type PathScope } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../../runtime/fs/index.js';
import { createTempTree, removeTempTree, type TreeEntry } from './temp-tree.js';

const ROOT = '/ws';
const LAYOUT = ['sub/HEAD', 'sub/objects/x', 'sub/refs/heads/main'];

/** A fake disk: `present(dir, name)` over a set of workspace-relative paths (any prefix of one exists). */
function diskOf(files: readonly string[], caseInsensitive = false): (dir: string, name: string) => boolean {
  const key = (p: string): string => (caseInsensitive ? p.toLowerCase() : p);
  const existing = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i += 1) existing.add(key(path.posix.join(ROOT, ...parts.slice(0, i))));
  }
  return (dir, name) => existing.has(key(path.posix.join(dir, name)));
}

const refusal = (target: string, files: readonly string[], planned: readonly string[] = [], caseInsensitive = false, rootIsHosts = true): string | undefined =>
  bareRepositoryWriteRefusal(path.posix.join(ROOT, target), ROOT, path.posix, diskOf(files, caseInsensitive), planned.map((p) => path.posix.join(ROOT, p)), rootIsHosts);

describe('bareRepositoryWriteRefusal: the attack rows', () => {
  it.each([
    ['config into a complete layout', 'sub/config', LAYOUT],
    ['a hook into a complete layout', 'sub/hooks/pre-commit', LAYOUT],
    ['config.worktree', 'sub/config.worktree', LAYOUT],
    ['commondir', 'sub/commondir', LAYOUT],
    ['a worktree entry', 'sub/worktrees/w/config', LAYOUT],
    ['a module entry', 'sub/modules/m/config', LAYOUT],
    ['a case-folded CONFIG', 'sub/CONFIG', LAYOUT],
    ['HEAD completing a layout beside config', 'sub/HEAD', ['sub/objects/x', 'sub/refs/r', 'sub/config']],
    ['objects completing a layout beside hooks', 'sub/objects/pack/p', ['sub/HEAD', 'sub/refs/r', 'sub/hooks/pre-commit']],
    ['refs completing a layout beside config', 'sub/refs/heads/main', ['sub/HEAD', 'sub/objects/x', 'sub/config']],
    ['a deep embedded repository', 'a/b/c/config', ['a/b/c/HEAD', 'a/b/c/objects/x', 'a/b/c/refs/r']],
    // git checks objects and refs in the directory commondir names, and takes config from there.
    ['a commondir beside HEAD', 'sub/commondir', ['sub/HEAD']],
    ['HEAD beside a commondir', 'sub/HEAD', ['sub/commondir']],
    ['config beside HEAD and a commondir', 'sub/config', ['sub/HEAD', 'sub/commondir']],
    // Below a .git is not the .git itself (attacker pass): git takes y/.git/inner for a repository when it runs
    // there, and a .GIT on a case-sensitive disk is no .git to git at all.
    ['a repository below a nested .git', 'y/.git/inner/config', ['y/.git/inner/HEAD', 'y/.git/inner/objects/o', 'y/.git/inner/refs/r']],
    ['a repository below a .GIT', 'x/.GIT/inner/hooks/post-checkout', ['x/.GIT/inner/HEAD', 'x/.GIT/inner/objects/o', 'x/.GIT/inner/refs/r']],
    ['a .GIT laid out as a repository', 'x/.GIT/config', ['x/.GIT/HEAD', 'x/.GIT/objects/o', 'x/.GIT/refs/r']],
    ["a repository in the top .git's objects", '.git/objects/config', ['.git/objects/HEAD', '.git/objects/objects/o', '.git/objects/refs/r']],
    ['the refs completing a layout below a .git', 'y/.git/inner/refs/heads/main', ['y/.git/inner/HEAD', 'y/.git/inner/objects/o', 'y/.git/inner/config']],
  ])('%s is refused', (_name, target, files) => {
    expect(refusal(target, files)).toMatch(/embedded bare repository/);
  });

  // A child session rooted at sub/ of its parent's workspace: its root is no host's (the list blocks .git/config
  // there too), so the rule looks at the root as at any directory.
  it.each([
    ['config', ['HEAD', 'objects/o', 'refs/r']],
    ['refs/heads/main', ['HEAD', 'objects/o', 'config']],
    ['commondir', ['HEAD']],
  ])('at the root of a session rooted below its host, %s is refused', (target, files) => {
    expect(refusal(target, files, [], false, false)).toMatch(/embedded bare repository/);
    expect(refusal(target, files)).toBeUndefined();
  });

  it('a change set writing the whole layout and its config at once is refused, whatever its order', () => {
    const set = ['sub/config', ...LAYOUT];
    for (const target of set) expect(refusal(target, [], set)).toMatch(/embedded bare repository/);
  });
});

describe('bareRepositoryWriteRefusal: the near misses', () => {
  it.each([
    ['config beside HEAD and objects only', 'sub/config', ['sub/HEAD', 'sub/objects/x']],
    ['a marker completing a layout with no code entry', 'sub/refs/r', ['sub/HEAD', 'sub/objects/x']],
    ['an ordinary file in a complete layout', 'sub/description', LAYOUT],
    ['objects content in a layout with config (no new marker)', 'sub/objects/y', [...LAYOUT, 'sub/config']],
    ['the workspace root itself (the host own)', 'config', ['HEAD', 'objects/x', 'refs/r']],
    ['the top .git (the name list governs it)', '.git/config', ['.git/HEAD', '.git/objects/x', '.git/refs/r']],
    ['a nested .git (the name list governs it)', 'sub/.git/modules/m/config', ['sub/.git/modules/m/HEAD', 'sub/.git/modules/m/objects/x', 'sub/.git/modules/m/refs/r']],
    ['a path outside the workspace', '../elsewhere/config', ['../elsewhere/HEAD']],
    ['a file named like a code entry, deeper', 'sub/src/config', LAYOUT],
    ['a commondir with no HEAD', 'sub/commondir', ['sub/objects/x']],
    ["the top repository's submodule repository (the host's, like .git/config)", '.git/modules/lib/config', ['.git/modules/lib/HEAD', '.git/modules/lib/objects/o', '.git/modules/lib/refs/r']],
    ["the top repository's worktree entry", '.git/worktrees/w/config.worktree', ['.git/worktrees/w/HEAD', '.git/worktrees/w/commondir']],
    ['a nested submodule of a submodule', '.git/modules/a/modules/b/config', ['.git/modules/a/modules/b/HEAD', '.git/modules/a/modules/b/objects/o', '.git/modules/a/modules/b/refs/r']],
  ])('%s is allowed', (_name, target, files) => {
    expect(refusal(target, files)).toBeUndefined();
  });

  it('costs no disk probe for a path that names no marker or code entry', () => {
    let probes = 0;
    bareRepositoryWriteRefusal('/ws/a/b/c/d.ts', ROOT, path.posix, () => (probes += 1) > 0);
    expect(probes).toBe(0);
  });
});

// Generated: any sequence of single writes the rule accepts, one at a time, never leaves a directory below the root
// (outside .git) holding HEAD, objects, refs and an entry git runs code from.
describe('bareRepositoryWriteRefusal: the invariant over generated write sequences', () => {
  // Few directories and mostly the names that matter, so that generated sequences do build layouts.
  const names = ['HEAD', 'objects/x', 'refs/r', 'config', 'hooks/pre-commit', 'commondir', 'worktrees/w', 'modules/m', 'description', 'CONFIG', 'head'];
  const dirs = ['sub', 'sub/inner', '.git', 'y/.git/inner', 'x/.GIT', '.git/modules/m'];
  // The directories the rule leaves to the name-based list, written out: a .git itself and the repositories under a
  // .git/modules or .git/worktrees.
  const leftToTheList = (dir: string): boolean => dir === '.git' || dir.endsWith('/.git') || /(^|\/)\.git\/(modules|worktrees)\/./.test(dir);
  const write = fc.record({ dir: fc.constantFrom(...dirs), name: fc.constantFrom(...names) });
  it.each([
    ['a case-sensitive disk', false],
    ['a case-insensitive disk (where head is HEAD)', true],
  ])('holds on %s', (_name, caseInsensitive) => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 24 }), (writes) => {
        const files: string[] = [];
        for (const { dir, name } of writes) {
          const target = `${dir}/${name}`;
          if (refusal(target, files, [], caseInsensitive) === undefined) files.push(target);
        }
        for (const dir of dirs.filter((d) => !leftToTheList(d))) {
          const entries = new Set(files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0]!));
          const folded = new Set([...entries].map((e) => e.toLowerCase()));
          // git's own test, written out: HEAD, with objects and refs or with a commondir.
          const has = (name: string): boolean => (caseInsensitive ? folded.has(name.toLowerCase()) : entries.has(name));
          const layout = has('HEAD') && ((has('objects') && has('refs')) || has('commondir'));
          // Code entries are matched case-folded either way (the stricter reading).
          const code = [...folded].some((e) => BARE_REPOSITORY_CODE_ENTRIES.has(e));
          if (layout && code) return false;
        }
        return true;
      }),
      { numRuns: 1000, seed: 20261203 },
    );
  });
});

describe('which directories the layout rule leaves to the name-based list', () => {
  it.each([
    [['.git'], true], [['sub', '.git'], true], [['.git', 'modules', 'lib'], true], [['.git', 'modules', 'a', 'b'], true],
    [['sub', '.git', 'worktrees', 'w'], true],
    [['.git', 'objects'], false], [['y', '.git', 'inner'], false], [['x', '.GIT'], false], [['x', '.GIT', 'inner'], false],
    [['.git', 'modules'], false], [['sub'], false], [['.GIT', 'modules', 'lib'], false],
  ] as [string[], boolean][])('%j: %s', (segments, skipped) => {
    expect(layoutRuleSkips(segments)).toBe(skipped);
  });

  it('takes the root for the host\'s unless the list blocks .git/config at any depth', () => {
    expect(rootRepositoryIsHosts()).toBe(true);
    expect(rootRepositoryIsHosts([{ segments: ['.GIT', 'Config'], depth: 'any', why: 'child root' }])).toBe(false);
    expect(rootRepositoryIsHosts([{ segments: ['.git', 'config'], depth: 'nested', why: 'default' }])).toBe(true);
  });
});

// The broker lets a write skip the process-wide write turn when namesBareRepositoryEntry says no: such a write must
// be one the rule never refuses on any disk, and one that adds no marker or code entry anywhere the rule looks.
describe('namesBareRepositoryEntry: what may skip the write turn', () => {
  const segment = fc.constantFrom('HEAD', 'head', 'objects', 'refs', 'config', 'Config', 'hooks', 'commondir', 'worktrees', 'modules', 'config.worktree', 'src', 'a.ts', '.git', 'description');
  it('a path it clears is never refused, with any disk and any other planned writes', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.array(fc.array(segment, { minLength: 1, maxLength: 4 }), { maxLength: 8 }), (target, disk) => {
        const relative = target.join('/');
        if (namesBareRepositoryEntry(path.posix.join(ROOT, relative), ROOT, path.posix)) return true;
        const files = disk.map((d) => d.join('/'));
        return refusal(relative, files) === undefined && refusal(relative, files, files) === undefined && refusal(relative, files, [], true) === undefined;
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });

  it.each([
    ['config below the root', 'sub/config', true],
    ['a marker, as a parent directory it creates', 'sub/objects/ab/cd', true],
    ['a code entry, case-folded', 'sub/HOOKS/pre-commit', true],
    ['an ordinary file', 'src/config.ts', false],
    ['the workspace root\'s own HEAD and config', 'config', false],
    ['under a .git (the name rows govern it)', 'sub/.git/config', false],
    ['outside the root', '../config', false],
  ])('%s: %s names one: %s', (_name, relative, expected) => {
    expect(namesBareRepositoryEntry(path.posix.resolve(ROOT, relative), ROOT, path.posix)).toBe(expected);
  });
});

describe('resolveForWrite on a real tree', () => {
  let base = '';
  afterEach(() => removeTempTree(base));
  const scopeOf = (ws: string): PathScope => ({ workspaceRoot: ws, readRoots: [], allowOutsideWorkspace: false, excludedPaths: [] });
  const tree = (entries: Record<string, TreeEntry>): string => {
    base = createTempTree(entries);
    return path.join(base, 'ws');
  };

  it('refuses config in an embedded bare repository, and a symlinked spelling of it', () => {
    const ws = tree({ 'ws/sub/HEAD': 'ref: refs/heads/main\n', 'ws/sub/objects/info/x': '', 'ws/sub/refs/heads/main': '' });
    fs.symlinkSync('sub', path.join(ws, 'alias'));
    for (const input of ['sub/config', 'alias/config', 'sub/hooks/post-checkout']) {
      expect(() => resolveForWrite(input, scopeOf(ws), path, createNodeGuardFs(), 'other')).toThrow(/BLOCKED_PATH|embedded bare repository/);
    }
  });

  it('refuses the marker that completes a layout beside an existing config, and allows the same marker without it', () => {
    const ws = tree({ 'ws/sub/HEAD': '', 'ws/sub/objects/x': '', 'ws/sub/config': '[core]\n', 'ws/plain/HEAD': '', 'ws/plain/objects/x': '' });
    expect(() => resolveForWrite('sub/refs/heads/main', scopeOf(ws), path, createNodeGuardFs(), 'other')).toThrow(/embedded bare repository/);
    expect(resolveForWrite('plain/refs/heads/main', scopeOf(ws), path, createNodeGuardFs(), 'other')).toBe(path.join(ws, 'plain/refs/heads/main'));
  });
});
