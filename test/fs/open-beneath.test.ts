import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTextFile } from '../../runtime/broker/file-ops.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { openVerifiedWithStat } from '../../runtime/fs/index.js';
import { BeneathOpener } from '../../runtime/fs/open-beneath.js';
import type { Capability } from '../../src/capability/capability.js';
import { ToolwardenError } from '../../src/errors.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The one-syscall read (openat2 beneath a root, no link followed) may only ever make a read faster: whatever it opens,
// the full path (the guard's walk, then a verified open) opens too, the same file under the same name; whatever the
// full path refuses, it refuses. Real files and real links of every kind, and generated paths through them.
let tree: TempTree;
let paths: SessionPaths;
const opener = BeneathOpener.get();

beforeAll(() => {
  tree = makeTempTree('tw-beneath', {
    'ws/a.txt': 'alpha\n',
    'ws/dir/b.txt': 'beta\n',
    'ws/dir/deep/c.txt': 'gamma\n',
    'ws/.git/config': '[core]\n',
    'shared/s.txt': 'shared\n',
    'outside/secret.txt': 'SECRET\n',
    'outside/dir/x.txt': 'SECRET x\n',
    'ws-evil/e.txt': 'SECRET evil\n',
  });
  const at = (p: string): string => tree.at(p);
  fs.symlinkSync('a.txt', at('ws/link-in'));
  fs.symlinkSync('dir', at('ws/link-dir'));
  fs.symlinkSync(at('outside/secret.txt'), at('ws/link-out'));
  fs.symlinkSync('../outside/dir', at('ws/link-out-dir'));
  fs.symlinkSync('loop-b', at('ws/loop-a'));
  fs.symlinkSync('loop-a', at('ws/loop-b'));
  fs.symlinkSync('missing', at('ws/dangling'));
  fs.symlinkSync('/proc/self/root', at('ws/proc-root'));
  fs.symlinkSync('/', at('ws/slash'));
  fs.symlinkSync(at('ws'), at('ws-link'));
  execFileSync('mkfifo', [at('ws/fifo')]);
  const root = fs.realpathSync(at('ws'));
  const capability: Capability = {
    sid: 's', tools: ['read_file'], workspaceRoot: root, readRoots: [fs.realpathSync(at('shared'))], allowOutsideWorkspace: false,
    excludedPaths: ['.git'], mcpServers: [], limits: DEFAULT_LIMITS, permissions: [], sandbox: 'off', net: false, env: [],
    toolModules: [], isolation: 'worker',
  };
  paths = new SessionPaths(capability);
});
afterAll(() => tree.cleanup());

/** The full path's answer: the file it opens (device and inode, and the name it gives), or the code it refuses with. */
function fullPath(input: string): { ino: string; path: string } | { code: string } {
  try {
    const checked = paths.readable(input);
    const { fd, stat } = openVerifiedWithStat(checked, 'read', paths.isReadableReal);
    fs.closeSync(fd);
    return stat.isFile() ? { ino: `${stat.dev}:${stat.ino}`, path: checked } : { code: 'not a file' };
  } catch (error) {
    return { code: error instanceof ToolwardenError ? error.code : String(error) };
  }
}

function fastPath(input: string): { ino: string; path: string } | undefined {
  const opened = paths.openReadableFile(input);
  if (opened === undefined) return undefined;
  fs.closeSync(opened.fd);
  return { ino: `${opened.stat.dev}:${opened.stat.ino}`, path: opened.path };
}

const SEGMENTS = ['a.txt', 'dir', 'deep', 'b.txt', 'c.txt', 'link-in', 'link-dir', 'link-out', 'link-out-dir', 'loop-a', 'dangling', 'proc-root', 'slash', 'fifo', '.git', 'config', '..', '.', '', 'missing', 'ws', 'outside', 'secret.txt', 'x.txt', 'shared', 's.txt', 'ws-evil', 'e.txt', 'ws-link', 'etc', 'passwd', 'self', 'proc'];

describe.skipIf(opener === undefined)('openat2 beneath a root (this kernel has it)', () => {
  it.each([
    ['a file in the workspace', 'a.txt'],
    ['a file in a subdirectory', 'dir/deep/c.txt'],
    ['a path with a harmless ..', 'dir/../a.txt'],
    ['an absolute path inside', '<ws>/dir/b.txt'],
    ['a file in a read root', '<shared>/s.txt'],
    ['a file under .git (reads are not blocked)', '.git/config'],
  ])('opens %s in one call, as the full path does', (_name, spelled) => {
    const input = spelled.replace('<ws>', paths.scope.workspaceRoot).replace('<shared>', paths.scope.readRoots[0] as string);
    const fast = fastPath(input);
    expect(fast).toBeDefined();
    expect(fullPath(input)).toEqual(fast);
  });

  it.each([
    ['a link to a file inside (the full path follows it)', 'link-in'],
    ['a path through a linked directory inside', 'link-dir/b.txt'],
    ['a link to a file outside', 'link-out'],
    ['a path through a link to a directory outside', 'link-out-dir/x.txt'],
    ['a link loop', 'loop-a'],
    ['a dangling link', 'dangling'],
    ['a link to /proc/self/root', 'proc-root/etc/passwd'],
    ['a link to /', 'slash/etc/passwd'],
    ['.. climbing out', '../outside/secret.txt'],
    ['an absolute path outside', '<outside>/secret.txt'],
    ['a prefix twin of the workspace', '../ws-evil/e.txt'],
    ['the workspace spelled through a link to it', '<ws-link>/a.txt'],
    ['a directory', 'dir'],
    ['a FIFO', 'fifo'],
    ['a trailing slash', 'a.txt/'],
    ['a missing file', 'missing.txt'],
    ['/proc', '/proc/self/environ'],
  ])('leaves %s to the full path', (_name, spelled) => {
    const input = spelled.replace('<outside>', tree.at('outside')).replace('<ws-link>', tree.at('ws-link'));
    expect(fastPath(input)).toBeUndefined();
  });

  it('reads a link inside and refuses a link outside, through readTextFile, as before', () => {
    expect(readTextFile(paths, 'link-in')?.text).toBe('alpha\n');
    expect(() => readTextFile(paths, 'link-out')).toThrow(expect.objectContaining({ code: 'NOT_READABLE' }));
    expect(readTextFile(paths, 'dir/deep/c.txt')?.path).toBe('dir/deep/c.txt');
  });

  it('generated paths: whatever the fast way opens, the full path opens too, the same file under the same name', () => {
    const segment = fc.constantFrom(...SEGMENTS);
    const prefix = fc.constantFrom('', paths.scope.workspaceRoot + '/', tree.at('') + '/', '/', tree.at('outside') + '/', (paths.scope.readRoots[0] as string) + '/');
    fc.assert(
      fc.property(prefix, fc.array(segment, { minLength: 1, maxLength: 6 }), (start, parts) => {
        const input = start + parts.join('/');
        const fast = fastPath(input);
        if (fast === undefined) return;
        expect(fullPath(input)).toEqual(fast);
      }),
      { numRuns: 3000, seed: 28 },
    );
  });
});

it('is unavailable off Linux or without openat2, and reads still work the full way', () => {
  if (opener === undefined) expect(paths.openReadableFile('a.txt')).toBeUndefined();
  expect(readTextFile(paths, path.join('dir', 'b.txt'))?.text).toBe('beta\n');
});
