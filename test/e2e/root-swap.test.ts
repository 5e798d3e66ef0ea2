import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The broker skips re-checking the workspace root's own components (they were realpath'ed at open) and relies on
// verifying every opened descriptor's real path. These tests swap the root for a link after the session opened.
let rt: Runtime;
let parent: TempTree;
let outside: TempTree;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 0 });
  parent = makeTempTree('tw-swap', { 'ws/notes.txt': 'inside\n' });
  outside = makeTempTree('tw-swap-outside', { 'notes.txt': 'secret\n', 'dir/x.txt': 'x\n' });
});
afterAll(async () => {
  await rt.close();
  parent.cleanup();
  outside.cleanup();
});

describe('a workspace root swapped for a symlink after the session opened', () => {
  it('refuses reads and writes that would land outside through the swapped root', async () => {
    const session = await rt.openSession({ workspaceRoot: parent.at('ws'), tools: ['read_file', 'write_file', 'list_dir'] });
    expect((await session.call('read_file', { path: 'notes.txt' })).isError).toBeUndefined();
    fs.renameSync(parent.at('ws'), parent.at('ws-real'));
    fs.symlinkSync(outside.root, parent.at('ws'));

    const read = await session.call('read_file', { path: 'notes.txt' });
    expect(read).toMatchObject({ isError: true, code: 'NOT_READABLE' });
    expect(read.content[0]?.text).not.toContain('secret');

    const write = await session.call('write_file', { path: 'dir/planted.txt', content: 'planted' });
    expect(write.isError).toBe(true);
    expect(fs.existsSync(outside.at('dir/planted.txt'))).toBe(false);
    await session.close();
  });
});
