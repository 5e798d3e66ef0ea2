import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findViolations, resolveLinks } from '../../../fuzz/shell/boundary.js';
import { fixtureLayout } from '../../../fuzz/shell/fixture.js';
import { decodeString, parseTrace, splitArgs } from '../../../fuzz/shell/trace.js';

const LOG = [
  '5     execve("/usr/bin/bash", ["bash", "-c", "cat x"], 0x7ffd /* 3 vars */) = 0',
  '5     openat(AT_FDCWD</w/ws>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
  '5     clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 6',
  '6     chdir("sub") = 0',
  '6     mkdir("new", 0777) = 0',
  '6     openat(AT_FDCWD</w/ws/sub>, "../link" <unfinished ...>',
  '5     wait4(-1,  <unfinished ...>',
  '6     <... openat resumed>, O_RDONLY) = 3</w/outside/secret.txt>',
  '6     renameat2(AT_FDCWD</w/ws/sub>, "a", 4</w/ws-evil>, "b", RENAME_NOREPLACE) = 0',
  '6     newfstatat(3</w/outside/secret.txt>, "", {st_mode=S_IFREG|0644, ...}, AT_EMPTY_PATH) = 0',
  '6     newfstatat(1<socket:[123]>, "", {st_mode=S_IFSOCK, ...}, AT_EMPTY_PATH) = 0',
  '6     openat(AT_FDCWD</w/ws/sub>, "out", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</w/ws/sub/out>',
  '6     unlinkat(AT_FDCWD</w/ws/sub>, "gone", 0) = 0',
  '6     fchmod(4</w/ws/sub/out>, 0600) = 0',
  '6     +++ exited with 0 +++',
].join('\n');

describe('parseTrace', () => {
  const touches = parseTrace(LOG, '/w/ws');
  const seen = touches.map((t) => `${t.syscall} ${t.kind} ${t.path}`);

  it('keeps only successful calls and joins unfinished halves', () => {
    expect(seen).toEqual([
      'execve exec /usr/bin/bash',
      'chdir meta /w/ws/sub',
      'mkdir write /w/ws/sub/new',
      'openat read /w/outside/secret.txt',
      'renameat2 write /w/ws/sub/a',
      'renameat2 write /w/ws-evil/b',
      'newfstatat meta /w/outside/secret.txt',
      'openat write /w/ws/sub/out',
      'unlinkat write /w/ws/sub/gone',
      'fchmod write /w/ws/sub/out',
    ]);
  });

  it('tracks the cwd through clone and chdir for calls without a dirfd', () => {
    expect(touches.find((t) => t.syscall === 'mkdir')?.path).toBe('/w/ws/sub/new');
  });

  it('takes an opened descriptor path as already resolved by the kernel', () => {
    expect(touches.find((t) => t.syscall === 'openat')?.resolved).toBe(true);
    expect(touches.find((t) => t.syscall === 'unlinkat')?.resolved).toBe(false);
  });
});

describe('strace argument decoding', () => {
  it.each([
    ['"a\\"b"', 'a"b'],
    ['"tab\\there"', 'tab\there'],
    ['"\\303\\251"', 'é'],
    ['"\\x41"', 'A'],
    ['0x1234', null],
  ])('decodeString(%s)', (arg, want) => expect(decodeString(arg)).toBe(want));

  it('splits arguments without breaking strings, arrays, structs or fd paths', () => {
    expect(splitArgs('AT_FDCWD</a,b>, "x, y", [1, 2], {a=1, b=2}, 0')).toEqual(['AT_FDCWD</a,b>', '"x, y"', '[1, 2]', '{a=1, b=2}', '0']);
  });
});

describe('findViolations and resolveLinks', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bound-')));
  const layout = fixtureLayout(base);
  fs.mkdirSync(layout.ws, { recursive: true });
  fs.mkdirSync(layout.outside, { recursive: true });
  fs.symlinkSync('.', path.join(layout.ws, 'self'));
  fs.symlinkSync(layout.outside, path.join(layout.ws, 'out'));
  const view = (p: string): string => p;
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('resolves `..` after a link as the kernel does, not lexically', () => {
    expect(resolveLinks(`${layout.ws}/self/../outside/x`, true, view)).toBe(`${base}/outside/x`);
    expect(resolveLinks(`${layout.ws}/out/x`, true, view)).toBe(`${layout.outside}/x`);
    expect(resolveLinks(`${layout.ws}/out`, false, view)).toBe(`${layout.ws}/out`);
  });

  const touch = (kind: 'read' | 'meta' | 'write' | 'exec', p: string, follow = true) => ({ pid: 1, syscall: 'x', kind, path: p, resolved: false, follow, line: '' });
  it.each([
    ['read', `${layout.ws}/out/secret`, true],
    ['write', `${layout.ws}/self/../ws-evil/x`, true],
    ['write', `${layout.ws}/.git/hooks/pre-commit`, true],
    ['exec', `${layout.ws}/evil.sh`, true],
    ['read', `${layout.ws}/a.txt`, false],
    ['write', `${layout.ws}/out`, false],
    ['read', '/usr/lib/x86_64-linux-gnu/libc.so.6', false],
    ['meta', base, false],
    ['write', '/dev/null', false],
    ['write', '/tmp/x', true],
  ] as const)('%s of %s is a violation: %s', (kind, p, bad) => {
    const follow = !(kind === 'write' && p.endsWith('/out'));
    expect(findViolations([touch(kind, p, follow)], layout, view).length > 0).toBe(bad);
  });
});
