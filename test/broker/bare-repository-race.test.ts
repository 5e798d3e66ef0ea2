import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyChangeSet, writeTextFile } from '../../runtime/broker/file-ops.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { withRepositoryWriteTurn } from '../../runtime/broker/repository-write-lock.js';
import { WriteQuota } from '../../runtime/broker/write-quota.js';
import { isBareRepositoryLayout } from '../../src/path-guard/bare-repository.js';
import { makeCapability } from '../helpers/capability.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// Two file-tool writes in flight at once, each harmless alone: `racy/config` and the `refs` that complete HEAD +
// objects + refs beside it. A write's temp file is renamed into place only after an fsync, so without serializing
// the check with the write, the second call checks a disk the first has not changed yet, and both land: host git
// then runs racy/config's core.fsmonitor. Every order, in one session and across two sessions of one workspace, must
// leave at most one of them written, and never a layout beside a code entry.
const FSMONITOR = '[core]\n\tfsmonitor = touch /tmp/pwned\n';
let ws: TempTree;

beforeEach(() => {
  ws = makeTempTree('tw-bare-race', { 'racy/HEAD': 'ref: refs/heads/main\n', 'racy/objects/info/packs': '', 'nohead/objects/info/packs': '', 'nohead/refs/heads/main': '', 'plain/a.txt': 'a\n' });
});
afterEach(() => ws.cleanup());

const sessionPaths = (): SessionPaths => new SessionPaths(makeCapability({ workspaceRoot: fs.realpathSync(ws.root), readRoots: [], excludedPaths: ['.git'] }));

type Write = (paths: SessionPaths) => Promise<unknown>;
const writeFile = (p: string, content = 'x\n'): Write => (paths) => writeTextFile(paths, new WriteQuota(0), p, content);
const patch = (...files: string[]): Write => (paths) => applyChangeSet(paths, new WriteQuota(0), files.map((p) => ({ kind: 'write' as const, path: p, content: 'x\n' })));

/** Whether a directory of the workspace ended up a repository to git with something git runs code from in it. */
function fed(): boolean {
  return fs.readdirSync(ws.root).some((dir) => {
    const names = fs.readdirSync(path.join(ws.root, dir));
    return isBareRepositoryLayout(names) && names.some((n) => ['config', 'hooks', 'commondir', 'config.worktree', 'worktrees', 'modules'].includes(n));
  });
}

const RACES: [string, Write, Write][] = [
  ['config, then the refs completing the layout', writeFile('racy/config', FSMONITOR), writeFile('racy/refs/heads/main')],
  ['the refs, then config', writeFile('racy/refs/heads/main'), writeFile('racy/config', FSMONITOR)],
  ['a hook, then the refs', writeFile('racy/hooks/post-checkout', '#!/bin/sh\n'), writeFile('racy/refs/heads/main')],
  ['config, then the HEAD completing the layout', writeFile('nohead/config', FSMONITOR), writeFile('nohead/HEAD', 'ref: refs/heads/main\n')],
  ['a patch of config, then a write of the refs', patch('racy/config'), writeFile('racy/refs/heads/main')],
  ['a write of config, then a patch of the refs', writeFile('racy/config', FSMONITOR), patch('racy/refs/heads/main', 'plain/b.txt')],
];

describe('file-tool writes racing to feed an embedded bare repository', () => {
  it.each(RACES)('%s: one session, at most one lands', async (_name, first, second) => {
    const paths = sessionPaths();
    const results = await Promise.allSettled([first(paths), second(paths)]);
    expect(fed()).toBe(false);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['BLOCKED_PATH']);
  });

  it.each(RACES)('%s: two sessions of one workspace, at most one lands', async (_name, first, second) => {
    const results = await Promise.allSettled([first(sessionPaths()), second(sessionPaths())]);
    expect(fed()).toBe(false);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });

  // A change that removes racy/config and then fails puts it back: a write of the refs meanwhile must not pass a
  // check made while config was gone.
  it('a failed patch restoring a removed config, raced by the refs', async () => {
    fs.writeFileSync(path.join(ws.root, 'racy/config'), FSMONITOR);
    const paths = sessionPaths();
    const failingPatch = applyChangeSet(paths, new WriteQuota(0), [{ kind: 'delete', path: 'racy/config' }, { kind: 'write', path: 'plain', content: 'x\n' }]);
    const results = await Promise.allSettled([failingPatch, writeFile('racy/refs/heads/main')(paths)]);
    expect(results.map((r) => (r.status === 'rejected' ? r.reason.code : 'ok'))).toEqual(['CONFLICT', 'BLOCKED_PATH']);
    expect(fs.readFileSync(path.join(ws.root, 'racy/config'), 'utf8')).toBe(FSMONITOR);
    expect(fed()).toBe(false);
  });

  it('a write that names no repository entry does not wait for the turn; one that names one does', async () => {
    let release!: () => void;
    const held = withRepositoryWriteTurn(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const paths = sessionPaths();
      await expect(writeFile('racy/description')(paths)).resolves.toMatchObject({ created: true });
      let landed = 0;
      const waiting = [writeFile('racy/objects/ab/cd')(paths), writeFile('racy/refs/heads/main')(paths)].map((p) => p.then(() => (landed += 1)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(landed).toBe(0);
      expect(fs.existsSync(path.join(ws.root, 'racy/refs'))).toBe(false);
      release();
      await Promise.all([held, ...waiting]);
      expect(landed).toBe(2);
    } finally {
      release();
    }
  });

  // Near misses: racing writes that feed nothing all land.
  it.each([
    ['two ordinary files', writeFile('plain/b.txt'), writeFile('plain/c.txt')],
    ['objects inside the existing layout and an ordinary file', writeFile('racy/objects/ab/cdef'), writeFile('plain/b.txt')],
    ['config beside HEAD and objects in another directory', writeFile('other/config', FSMONITOR), writeFile('racy/refs/heads/main')],
  ] as [string, Write, Write][])('%s: both land', async (_name, first, second) => {
    const paths = sessionPaths();
    const results = await Promise.allSettled([first(paths), second(paths)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(fed()).toBe(false);
  });
});
