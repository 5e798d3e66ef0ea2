import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChangeSet, listDirectory, readTextFile, statPath, writeTextFile } from '../../runtime/broker/file-ops.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { WriteQuota } from '../../runtime/broker/write-quota.js';
import type { Capability } from '../../src/capability/capability.js';
import { ToolwardenError } from '../../src/errors.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import os from 'node:os';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { globFiles } from '../../workers/walk/glob-files.js';
import { grepFiles } from '../../workers/walk/grep-files.js';

// A racing swapper (a real process on the other core) renames workspace directory `d` away, puts a symlink to an
// outside directory in its place and moves it back, over and over, while the file operations run. Nothing may be
// created, changed or deleted outside (not even for a moment: the outside directories' mtimes are compared), and no
// listing, read or stat may show the outside. TW_RACE_ITERATIONS=5000 runs the long version.
const ITERATIONS = Number(process.env['TW_RACE_ITERATIONS'] ?? 60);
const SWAPPER = fileURLToPath(new URL('./fixtures/swapper.mjs', import.meta.url));

const INSIDE = { 'd/victim.txt': 'inside victim\n', 'd/gone.txt': 'inside gone\n', 'd/keep.txt': 'keep\n', 'blocker.txt': 'a file\n' };
const OUTSIDE = { 'victim.txt': 'OUTSIDE victim, a longer text\n', 'gone.txt': 'OUTSIDE gone\n', 'p.txt': 'OUTSIDE p\n', 'OUTSIDE_CANARY': 'x\n', 'q/keep': 'x\n' };

// Names only the outside directory has: a listing that shows one listed the outside.
const OUTSIDE_ONLY = ['OUTSIDE_CANARY', 'q'];

// A journalling disk (where the broker's fsyncs stall the swapper) and tmpfs (where both run flat out).
const FILESYSTEMS: [string, string][] = [['the temp dir', os.tmpdir()], ...(fs.existsSync('/dev/shm') ? [['tmpfs', '/dev/shm'] as [string, string]] : [])];

/** Every entry under `root` with its kind, content hash, and for directories their mtime and ctime. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string): void => {
    const full = path.join(root, rel);
    const stat = fs.lstatSync(full);
    if (stat.isDirectory()) {
      out[rel || '.'] = `dir ${stat.mtimeMs} ${stat.ctimeMs}`;
      for (const name of fs.readdirSync(full)) visit(path.join(rel, name));
    } else {
      out[rel] = `${stat.isSymbolicLink() ? 'link' : 'file'} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  visit('');
  return out;
}

async function startSwapper(dir: string, target: string, stop: string): Promise<{ child: ChildProcess; done: Promise<number> }> {
  const child = spawn(process.execPath, [SWAPPER, dir, target, stop], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.startsWith('ready\n')) ready();
  });
  const done = new Promise<number>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(Number(output.split('\n')[1])) : reject(new Error(`swapper exited ${code}: ${errors}`))));
  });
  done.catch(() => {}); // awaited (and rethrown) once the operations are over
  await Promise.race([started, done]);
  return { child, done };
}

const FAILING_PATCH = [
  { kind: 'write' as const, path: 'd/victim.txt', content: 'patched\n' },
  { kind: 'write' as const, path: 'd/newdir/new.txt', content: 'new\n' },
  { kind: 'delete' as const, path: 'd/gone.txt' },
  { kind: 'write' as const, path: 'blocker.txt/x', content: 'fails: a file is in the way\n' },
];

describe.each(FILESYSTEMS)(`a directory swapped for a link to the outside and back by a racing process (${ITERATIONS} iterations), on %s`, (_name, base) => {
  let tree: TempTree;
  let outside: TempTree;
  let paths: SessionPaths;
  const quota = new WriteQuota(0);
  const outcomes = new Map<string, number>();
  const previousTmp = process.env['TMPDIR'];

  beforeAll(() => {
    process.env['TMPDIR'] = base;
    tree = makeTempTree('tw-race', { 'ws/.keep': '' });
    tree.write(Object.fromEntries(Object.entries(INSIDE).map(([k, v]) => [`ws/${k}`, v])));
    outside = makeTempTree('tw-race-outside', OUTSIDE);
    if (previousTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previousTmp;
    const capability: Capability = {
      sid: 'race', tools: [], workspaceRoot: tree.at('ws'), readRoots: [], allowOutsideWorkspace: false, excludedPaths: [], mcpServers: [],
      limits: DEFAULT_LIMITS, permissions: [], sandbox: 'off', net: false, env: [], toolModules: [], isolation: 'worker',
    };
    paths = new SessionPaths(capability);
  });
  afterAll(() => {
    tree.cleanup();
    outside.cleanup();
  });

  /** Runs one operation; a refusal is a fine outcome (the broker sends any error back as data), counted by code. */
  async function attempt<T>(name: string, operate: () => T | Promise<T>): Promise<T | undefined> {
    try {
      const value = await operate();
      outcomes.set(`${name} ok`, (outcomes.get(`${name} ok`) ?? 0) + 1);
      return value;
    } catch (error) {
      const code = error instanceof ToolwardenError ? error.code : `raw ${String((error as NodeJS.ErrnoException).code)}`;
      outcomes.set(`${name} ${code}`, (outcomes.get(`${name} ${code}`) ?? 0) + 1);
      return undefined;
    }
  }

  it('never creates, changes, deletes or lists anything outside, and every rollback restores the inside', async () => {
    const before = snapshot(outside.root);
    const stop = tree.at('stop');
    const swapper = await startSwapper(tree.at('ws/d'), outside.root, stop);
    const leaks: string[] = [];
    try {
      for (let i = 0; i < ITERATIONS; i += 1) {
        await attempt('write_file d/n/m/f.txt', () => writeTextFile(paths, quota, 'd/n/m/f.txt', `w${i}\n`));
        const listing = await attempt('list_dir d', () => listDirectory(paths, 'd', 1000));
        if (listing?.entries.some((e) => OUTSIDE_ONLY.includes(e.name))) leaks.push(`list_dir d listed ${listing.entries.map((e) => e.name).join(', ')}`);
        const read = await attempt('read_file d/victim.txt', () => readTextFile(paths, 'd/victim.txt'));
        if (read?.text.includes('OUTSIDE')) leaks.push(`read_file read ${read.text}`);
        const stat = await attempt('stat d/victim.txt', () => statPath(paths, 'd/victim.txt'));
        if (stat && stat.size !== INSIDE['d/victim.txt'].length) leaks.push(`stat saw ${stat.size} bytes`);
        const scope = { roots: [paths.scope.workspaceRoot] };
        for (const root of ['d', '.']) {
          const grep = await attempt(`grep ${root}`, () => grepFiles({ root: paths.readable(root), pattern: 'OUTSIDE', maxResults: 100, scope }));
          if (grep?.matches.length) leaks.push(`grep ${root} found ${grep.matches.map((m) => `${m.path}: ${m.text}`).join(', ')}`);
          const glob = await attempt(`glob ${root}`, () => globFiles({ root: paths.readable(root), pattern: '**', maxResults: 1000, scope }));
          if (glob?.paths.some((p) => OUTSIDE_ONLY.some((name) => p.split('/').includes(name)))) leaks.push(`glob ${root} listed ${glob.paths.join(', ')}`);
        }
        await attempt('apply_patch with a failing last step', () => applyChangeSet(paths, quota, FAILING_PATCH));
        await attempt('apply_patch add d/p.txt', () => applyChangeSet(paths, quota, [{ kind: 'write', path: 'd/p.txt', content: 'inside p\n' }]));
        await attempt('apply_patch delete d/p.txt', () => applyChangeSet(paths, quota, [{ kind: 'delete', path: 'd/p.txt' }]));
      }
    } finally {
      fs.writeFileSync(stop, '');
    }
    const swaps = await swapper.done;
    if (process.env['TW_RACE_ITERATIONS']) console.log(JSON.stringify({ iterations: ITERATIONS, swaps, outcomes: Object.fromEntries([...outcomes].sort()) }, null, 1));

    expect.soft(leaks).toEqual([]);
    expect.soft(snapshot(outside.root)).toEqual(before);
    expect.soft(fs.readFileSync(tree.at('ws/d/victim.txt'), 'utf8')).toBe(INSIDE['d/victim.txt']);
    expect.soft(fs.readFileSync(tree.at('ws/d/gone.txt'), 'utf8')).toBe(INSIDE['d/gone.txt']);
    expect.soft(fs.existsSync(tree.at('ws/d/newdir/new.txt'))).toBe(false);
    expect.soft(Object.keys(snapshot(tree.at('ws'))).filter((p) => p.endsWith('.tw-tmp'))).toEqual([]);
    // The race was real: the swapper ran throughout and some operations met the link.
    expect.soft(swaps).toBeGreaterThan(ITERATIONS);
  }, 600_000);
});
