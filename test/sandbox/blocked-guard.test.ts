import { existsSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { MISSING_INODE, topLevelStubs } from '../../src/sandbox/blocked-changes.js';
import { startBlockedGuard } from '../../runtime/sandbox/blocked-guard.js';
import { makeTempTree } from '../helpers/temp-workspace.js';

// Each layout of the workspace's top: the guard answers existence from its walk's listing, and must give exactly
// the stubs that asking the disk (existsSync and statSync, both following symlinks) gives.
const LAYOUTS: ReadonlyArray<[string, Record<string, string>, (root: string) => void]> = [
  ['an empty workspace', {}, () => {}],
  ['a .git directory without hooks', { '.git/config': '[core]' }, () => {}],
  ['a .git directory with hooks', { '.git/hooks/x': '#' }, () => {}],
  ['a .git file (a worktree)', { '.git': 'gitdir: /elsewhere' }, () => {}],
  ['.git a symlink to a directory', { 'real-git/config': '[core]' }, (root) => symlinkSync(`${root}/real-git`, `${root}/.git`)],
  ['.git a dangling symlink', {}, (root) => symlinkSync(`${root}/nowhere`, `${root}/.git`)],
  ['.ssh a dangling symlink into the workspace', {}, (root) => symlinkSync(`${root}/sub/keys`, `${root}/.ssh`)],
  ['.ssh a symlink to a file', { target: 'x' }, (root) => symlinkSync(`${root}/target`, `${root}/.ssh`)],
  ['existing .ssh, .bashrc and .envrc', { '.ssh/id': 'k', '.bashrc': 'x', '.envrc': 'x' }, () => {}],
  ['a .git directory under an excluded name', { '.git/config': '[core]', secret: 's' }, () => {}],
];

describe('startBlockedGuard: stubs from the walk, as the disk would answer', () => {
  it.each(LAYOUTS)('%s', (_name, files, arrange) => {
    const tree = makeTempTree('tw-guard', files);
    try {
      arrange(tree.root);
      const guard = startBlockedGuard(tree.root, DEFAULT_BLOCKLIST, [tree.at('secret')]);
      const fromDisk = topLevelStubs(tree.root, existsSync, (p) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true, DEFAULT_BLOCKLIST);
      expect([...guard.stubs].sort()).toEqual([...fromDisk].sort());
      // Every mount is recorded with the inode lstat gives now (a stub is missing until its sandbox makes it).
      for (const path of guard.existing) expect(guard.mounts.get(path)).toBe(String(lstatSync(path).ino));
      for (const stub of guard.stubs) expect(guard.mounts.get(stub)).toBe(lstatSync(stub, { throwIfNoEntry: false })?.ino.toString() ?? MISSING_INODE);
      expect(guard.mounts.size).toBe(new Set([...guard.existing, ...guard.stubs]).size);
    } finally {
      tree.cleanup();
    }
  });

  it('a stub that exists by the next command is an existing path with its inode, no longer a stub', () => {
    const tree = makeTempTree('tw-guard', {});
    try {
      const first = startBlockedGuard(tree.root, DEFAULT_BLOCKLIST, []);
      expect(first.stubs).toContain(tree.at('.ssh'));
      mkdirSync(tree.at('.ssh')); // as a zygote's mount point stays on the host
      writeFileSync(tree.at('.ssh/authorized_keys'), 'k');
      const next = startBlockedGuard(tree.root, DEFAULT_BLOCKLIST, []);
      expect(next.stubs).not.toContain(tree.at('.ssh'));
      expect(next.mounts.get(tree.at('.ssh'))).toBe(String(lstatSync(tree.at('.ssh')).ino));
    } finally {
      tree.cleanup();
    }
  });
});
