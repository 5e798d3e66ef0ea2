import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLibcIo } from '../../workers/walk/libc-io.js';
import { direntKind, nodeIo, type WalkIo } from '../../workers/walk/walk-io.js';
import { createTempTree, type TempTree } from './temp-tree.js';

// The walk's descriptor calls, each implementation against the same rules: libc through koffi (the default where it
// loads) and node:fs through /proc/self/fd (the fallback).
const libcIo = loadLibcIo();
const IOS: WalkIo[] = [nodeIo, ...(libcIo === undefined ? [] : [libcIo])];
const O_CLOEXEC = 0o2000000;

let tree: TempTree;

beforeAll(() => {
  tree = createTempTree({
    'ws/file.txt': 'inside\n',
    'ws/sub/deep.txt': 'deep\n',
    'ws/link-out-file': { link: '../outside/secret.txt' },
    'ws/link-out-dir': { link: '../outside' },
    'ws/link-in-file': { link: 'file.txt' },
    'outside/secret.txt': 'SECRET\n',
  });
  execFileSync('mkfifo', [tree.path('ws/fifo')]);
});

afterAll(() => tree.remove());

function fdFlags(fd: number): number {
  const line = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').find((text) => text.startsWith('flags:'));
  return Number.parseInt(line?.split(/\s+/)[1] ?? '', 8);
}

function withDir<T>(io: WalkIo, path: string, use: (fd: number) => T): T {
  const fd = io.openDir(path);
  expect(fd).toBeGreaterThanOrEqual(0);
  try {
    return use(fd);
  } finally {
    io.close(fd);
  }
}

it('loads the libc calls on this Linux machine (the other tests would cover the fallback only)', () => {
  expect(process.platform !== 'linux' || libcIo !== undefined).toBe(true);
});

describe.each(IOS.map((io) => ({ name: io.name, io })))('$name io', ({ io }) => {
  it.each([
    { rule: 'a link to a file outside', name: 'link-out-file', opens: false },
    { rule: 'a link to a file inside (links are resolved by the walk, never by an open)', name: 'link-in-file', opens: false },
    { rule: 'a regular file (near miss)', name: 'file.txt', opens: true },
  ])('openFileAt does not follow $rule', ({ name, opens }) => {
    withDir(io, tree.path('ws'), (dirFd) => {
      const fd = io.openFileAt(dirFd, name);
      if (fd >= 0) io.close(fd);
      expect(fd >= 0).toBe(opens);
    });
  });

  it.each([
    { rule: 'the final component a link to a directory outside', path: 'ws/link-out-dir', opens: false },
    { rule: 'a file, not a directory', path: 'ws/file.txt', opens: false },
    { rule: 'a real directory (near miss)', path: 'ws/sub', opens: true },
  ])('openDir refuses $rule', ({ path, opens }) => {
    const fd = io.openDir(tree.path(path));
    if (fd >= 0) io.close(fd);
    expect(fd >= 0).toBe(opens);
  });

  it('openFile does not follow a final link', () => {
    expect(io.openFile(tree.path('ws/link-out-file'))).toBe(-1);
  });

  it('opens every descriptor close-on-exec, so a command spawned meanwhile inherits none', () => {
    const fds = [io.openDir(tree.path('ws')), io.openFile(tree.path('ws/file.txt'))];
    fds.push(io.openFileAt(fds[0] as number, 'file.txt'));
    try {
      for (const fd of fds) expect(fdFlags(fd) & O_CLOEXEC).toBe(O_CLOEXEC);
    } finally {
      for (const fd of fds) io.close(fd);
    }
  });

  it('opens a FIFO without blocking and reports it as no regular file', () => {
    withDir(io, tree.path('ws'), (dirFd) => {
      const fd = io.openFileAt(dirFd, 'fifo');
      expect(fd).toBeGreaterThanOrEqual(0);
      expect(io.regularFileSize(fd)).toBe(-1);
      io.close(fd);
    });
  });

  it.each([
    { rule: 'a directory', path: 'ws/sub', size: -1 },
    { rule: 'a regular file (near miss)', path: 'ws/file.txt', size: 7 },
  ])('regularFileSize of $rule is $size', ({ path, size }) => {
    const fd = openSync(tree.path(path), 'r');
    try {
      expect(io.regularFileSize(fd)).toBe(size);
    } finally {
      closeSync(fd);
    }
  });

  it('never reads past the length it is given, nor past the end of the buffer', () => {
    const fd = io.openFile(tree.path('ws/file.txt'));
    const buffer = Buffer.alloc(6, 0x2e);
    try {
      expect(io.read(fd, buffer, 4, 100)).toBe(2);
      expect(buffer.toString()).toBe('....in');
      expect(io.read(fd, buffer, 0, 3)).toBe(3);
      expect(buffer.toString()).toBe('sid.in');
    } finally {
      io.close(fd);
    }
  });

  it('lists what readdir lists, with the same kinds, for generated names', () => {
    fc.assert(
      fc.property(fc.uniqueArray(entryName(), { minLength: 0, maxLength: 30 }), (names) => {
        const dir = createTempTree({});
        try {
          names.forEach((name, index) => writeFileSync(dir.path(name), index % 2 === 0 ? 'x' : ''));
          expect(listed(io, dir.root)).toEqual(readdirListing(dir.root));
        } finally {
          dir.remove();
        }
      }),
      { numRuns: 20 },
    );
  });

  it('lists a directory whose records take more than one getdents64 call (over 32 KiB)', () => {
    const dir = createTempTree({ 'sub/': '', 'link': { link: 'sub' } });
    try {
      for (let i = 0; i < 250; i += 1) writeFileSync(dir.path(`${'p'.repeat(200)}${i}`), '');
      const got = listed(io, dir.root);
      expect(got).toHaveLength(252);
      expect(got).toEqual(readdirListing(dir.root));
    } finally {
      dir.remove();
    }
  });
});

function listed(io: WalkIo, path: string): string[] | undefined {
  return withDir(io, path, (fd) => io.readEntries(fd)?.map((entry) => `${entry.name} ${entry.kind}`).sort());
}

function readdirListing(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).map((entry) => `${entry.name} ${direntKind(entry)}`).sort();
}

// Names a directory can hold: no `/` or NUL, not `.` or `..`, at most 255 UTF-8 bytes; dots, spaces, `\`, and non-ASCII.
function entryName(): fc.Arbitrary<string> {
  return fc
    .string({ unit: fc.constantFrom('a', 'Z', '.', ' ', '-', '\\', '\n', 'é', 'ü', '日', '😀', 'e\u0301'), minLength: 1, maxLength: 40 })
    .filter((name) => name !== '.' && name !== '..' && Buffer.byteLength(name) <= 255);
}
