import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../runtime/broker/file-ops.js';
import { removeMadeDirectories } from '../../runtime/fs/index.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { WriteQuota } from '../../runtime/broker/write-quota.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import type { ChangeStep } from '../../src/protocol.js';
import { makeCapability } from '../helpers/capability.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Issue 29 item 9: a failed apply_patch restored every file but left the directories it had made (a patch adding
// a/b/c/new.txt that failed on a later file left a/b/c). A rollback removes what the patch made, and only that.
let ws: TempTree;
let paths: SessionPaths;
const quota = new WriteQuota(0);

const FAILS_LAST: readonly ChangeStep[] = [
  { kind: 'write', path: 'a/b/c/new.txt', content: 'new\n' },
  { kind: 'write', path: 'kept/d/e.txt', content: 'new\n' },
  { kind: 'write', path: 'blocker.txt/x', content: 'a file is in the way\n' },
];

beforeEach(() => {
  ws?.cleanup();
  ws = makeTempTree('tw-rollback', { 'blocker.txt': 'a file\n', 'kept/old.txt': 'old\n' });
  paths = new SessionPaths(makeCapability({ workspaceRoot: ws.root, readRoots: [], excludedPaths: [], sandbox: 'off' }));
});
afterAll(() => ws.cleanup());

describe('a failed change set', () => {
  it('removes the directories it made, deepest first, and keeps those that were there', async () => {
    await expect(applyChangeSet(paths, quota, FAILS_LAST)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(fs.existsSync(ws.at('a'))).toBe(false);
    expect(fs.existsSync(ws.at('kept/d'))).toBe(false);
    expect(fs.readdirSync(ws.at('kept'))).toEqual(['old.txt']);
    expect(fs.readdirSync(ws.root).sort()).toEqual(['blocker.txt', 'kept']);
  });

  it('removes only empty directories it made, never through a link swapped in', () => {
    const outside = makeTempTree('tw-rollback-out', { 'm/.keep': '' });
    try {
      fs.rmSync(outside.at('m/.keep'));
      fs.mkdirSync(ws.at('x/y'), { recursive: true });
      fs.writeFileSync(ws.at('x/theirs.txt'), 'theirs\n');
      fs.symlinkSync(outside.root, ws.at('l'));
      removeMadeDirectories([ws.at('x'), ws.at('x/y'), ws.at('l/m')]);
      expect(fs.existsSync(ws.at('x/y'))).toBe(false);
      expect(fs.readFileSync(ws.at('x/theirs.txt'), 'utf8')).toBe('theirs\n');
      expect(fs.statSync(outside.at('m')).isDirectory()).toBe(true);
    } finally {
      outside.cleanup();
    }
  });

  it('near miss: a patch that succeeds keeps the directories it made', async () => {
    await applyChangeSet(paths, quota, FAILS_LAST.slice(0, 2));
    expect(fs.readFileSync(ws.at('a/b/c/new.txt'), 'utf8')).toBe('new\n');
  });
});

describe('apply_patch through a session', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await createRuntime({ idleWorkers: 1 });
  });
  afterAll(async () => rt.close());

  it('leaves no directory behind when a later file fails', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['apply_patch'] });
    // Every path passes the checks before anything changes; the second file lands where the first made a directory.
    const patch = ['*** Begin Patch', '*** Add File: a/b/c/new.txt', '+new', '*** Add File: a/b', '+a file where a directory now is', '*** End Patch'].join('\n');
    const result = await s.call('apply_patch', { patch });
    expect(result, textOf(result)).toMatchObject({ isError: true, code: 'CONFLICT' });
    expect(fs.existsSync(ws.at('a'))).toBe(false);
    await s.close();
  });
});
