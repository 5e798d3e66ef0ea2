import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

const SWAPPER = fileURLToPath(new URL('../fs/fixtures/swapper.mjs', import.meta.url));

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

describe('a workspace root given as a symlink', () => {
  let tree: TempTree;
  let session: Awaited<ReturnType<Runtime['openSession']>>;
  beforeAll(async () => {
    tree = makeTempTree('tw-linked-root', { 'real/src/a.txt': 'hello\n', 'real-evil/secret.txt': 'secret\n', 'outside/secret.txt': 'secret\n' });
    fs.symlinkSync(tree.at('real'), tree.at('link'));
    fs.symlinkSync(tree.at('real-evil'), tree.at('link-evil'));
    fs.symlinkSync(tree.at('outside'), tree.at('real/out'));
    session = await rt.openSession({ workspaceRoot: tree.at('link'), tools: ['read_file', 'write_file', 'list_dir', 'grep'] });
  });
  afterAll(async () => {
    await session.close();
    tree.cleanup();
  });

  it.each([
    ['a relative path', 'read_file', () => ({ path: 'src/a.txt' })],
    ['an absolute path through the link', 'read_file', () => ({ path: tree.at('link/src/a.txt') })],
    ['an absolute path through the canonical root', 'read_file', () => ({ path: tree.at('real/src/a.txt') })],
    ['a listing through the link', 'list_dir', () => ({ path: tree.at('link/src') })],
    ['a grep through the link', 'grep', () => ({ pattern: 'hello', path: tree.at('link') })],
    ['a write through the link', 'write_file', () => ({ path: tree.at('link/src/new.txt'), content: 'new\n' })],
  ])('accepts %s', async (_name, tool, args) => {
    const result = await session.call(tool, args());
    expect(result.isError).toBeUndefined();
  });

  it.each([
    ['a prefix twin of the link', 'read_file', () => ({ path: tree.at('link-evil/secret.txt') }), 'NOT_READABLE'],
    ['a prefix twin of the canonical root', 'read_file', () => ({ path: tree.at('real-evil/secret.txt') }), 'NOT_READABLE'],
    ['a link out, through the root link', 'read_file', () => ({ path: tree.at('link/out/secret.txt') }), 'NOT_READABLE'],
    ['.. out of the root link', 'read_file', () => ({ path: `${tree.at('link')}/../outside/secret.txt` }), 'NOT_READABLE'],
    ['a write to a prefix twin of the link', 'write_file', () => ({ path: tree.at('link-evil/planted.txt'), content: 'x' }), 'OUTSIDE_WORKSPACE'],
    ['a write through a link out', 'write_file', () => ({ path: tree.at('link/out/planted.txt'), content: 'x' }), 'OUTSIDE_WORKSPACE'],
  ])('refuses %s', async (_name, tool, args, code) => {
    const result = await session.call(tool, args());
    expect(result).toMatchObject({ isError: true, code });
    expect(fs.readdirSync(tree.at('outside'))).toEqual(['secret.txt']);
    expect(fs.readdirSync(tree.at('real-evil'))).toEqual(['secret.txt']);
  });
});

describe('file tools through a session while a real process swaps a workspace directory for a link to the outside', () => {
  const ROUNDS = Math.max(10, Math.floor(Number(process.env['TW_RACE_ITERATIONS'] ?? 0) / 20));
  it(`leaves the outside as it was (${ROUNDS} rounds)`, async () => {
    const tree = makeTempTree('tw-session-race', { 'ws/d/victim.txt': 'inside\n', 'ws/blocker.txt': 'file\n' });
    const out = makeTempTree('tw-session-race-outside', { 'victim.txt': 'OUTSIDE\n', 'OUTSIDE_CANARY': 'x\n' });
    const before = JSON.stringify(fs.readdirSync(out.root).sort()) + fs.statSync(out.root).mtimeMs;
    const session = await rt.openSession({ workspaceRoot: tree.at('ws'), tools: ['write_file', 'list_dir', 'apply_patch', 'read_file', 'grep'] });
    const swapper = spawn(process.execPath, [SWAPPER, tree.at('ws/d'), out.root, tree.at('stop')], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => swapper.stdout!.once('data', resolve));
    const exited = new Promise((resolve) => swapper.on('exit', resolve));
    const seen: string[] = [];
    try {
      for (let i = 0; i < ROUNDS; i += 1) {
        await session.call('write_file', { path: 'd/n/m/f.txt', content: `${i}\n` });
        seen.push(textOf(await session.call('list_dir', { path: 'd' })));
        seen.push(textOf(await session.call('read_file', { path: 'd/victim.txt' })));
        seen.push(textOf(await session.call('grep', { pattern: 'OUTSIDE', path: '.' })));
        await session.call('apply_patch', {
          patch: '*** Begin Patch\n*** Update File: d/victim.txt\n@@\n-inside\n+patched\n*** Add File: blocker.txt/x\n+fails\n*** End Patch\n',
        });
      }
    } finally {
      fs.writeFileSync(tree.at('stop'), '');
      await exited;
      await session.close();
    }
    // A line of the outside file as read_file (`1\tOUTSIDE`) or grep (`d/victim.txt:1: OUTSIDE`) shows it, or its name.
    expect(seen.filter((text) => /\tOUTSIDE|: OUTSIDE|OUTSIDE_CANARY/.test(text))).toEqual([]);
    expect(JSON.stringify(fs.readdirSync(out.root).sort()) + fs.statSync(out.root).mtimeMs).toBe(before);
    expect(fs.readFileSync(out.at('victim.txt'), 'utf8')).toBe('OUTSIDE\n');
    expect(fs.readFileSync(tree.at('ws/d/victim.txt'), 'utf8')).toBe('inside\n');
    tree.cleanup();
    out.cleanup();
  }, 120_000);
});
