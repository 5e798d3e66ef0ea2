import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveForWrite, type PathScope } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../../runtime/fs/index.js';
import { outcome } from './outcome.js';
import { addEntries, createTempTree, removeTempTree } from './temp-tree.js';

let base = '';
let ws = '';
const fs = createNodeGuardFs();

beforeAll(() => {
  base = createTempTree({
    'ws/file.txt': 'x',
    'ws/a/b/c/file.txt': 'x',
    'ws/.gitignore': 'x',
    'ws/.git/config': 'x',
    'ws/.git/hooks/pre-commit.sample': 'x',
    'ws/.ssh/id': 'x',
    'ws/.ssh-backup/id': 'x',
    'ws/build/out/x': 'x',
    'ws/vendor/lib.js': 'x',
    'ws/cafe\u0301/menu.txt': 'x',
    'ws-evil/secret.txt': 'x',
    'ws.bak/secret.txt': 'x',
    'ws2/secret.txt': 'x',
    'outside/secret.txt': 'x',
    'outside/dir/f.txt': 'x',
    'home/.ssh/authorized_keys': 'x',
    'readroot/doc.txt': 'x',
    'caf\u00e9/file.txt': 'x',
  });
  ws = path.join(base, 'ws');
  addEntries(base, {
    'ws/to-outside-file': { link: path.join(base, 'outside/secret.txt') },
    'ws/to-outside-dir': { link: '../outside' },
    'ws/a/b/climb': { link: '../../../outside' },
    'ws/a/b/c/deep-out': { link: path.join(base, 'outside/dir') },
    'ws/chain1': { link: 'chain2' },
    'ws/chain2': { link: 'a/chain3' },
    'ws/a/chain3': { link: '../../outside' },
    'ws/chain-in1': { link: 'chain-in2' },
    'ws/chain-in2': { link: 'a/b' },
    'ws/dangling-in': { link: 'not-yet' },
    'ws/dangling-out': { link: '../outside/not-yet.txt' },
    'ws/to-root': { link: '/' },
    'ws/to-ws': { link: '.' },
    'ws/to-ws-abs': { link: ws },
    'ws/proc-root': { link: '/proc/self/root' },
    'ws/innocent': { link: '.ssh' },
    'ws/hooks-link': { link: '.git/hooks' },
    'ws/dotgit': { link: '.git' },
    'ws/to-readroot': { link: '../readroot' },
    'ws/to-home-ssh': { link: '../home/.ssh' },
    'alias-of-ws': { link: 'ws' },
    'alias-of-ws-evil': { link: 'ws-evil' },
    'alias-of-base': { link: '.' },
    'alias-loop': { link: 'alias-loop' },
  });
});
afterAll(() => removeTempTree(base));

function scope(overrides: Partial<PathScope> = {}): PathScope {
  return { workspaceRoot: ws, readRoots: [path.join(base, 'readroot')], allowOutsideWorkspace: false, excludedPaths: [], ...overrides };
}

function write(input: unknown, overrides: Partial<PathScope> = {}) {
  const result = outcome(() => resolveForWrite(input, scope(overrides), path.posix, fs));
  return result.path === undefined ? result.code : path.relative(base, result.path) || '.';
}

describe('resolveForWrite on a real tree', () => {
  it.each([
    // family 1: prefix twins, and the near miss (the root itself and a child)
    ['sibling ws-evil', () => `${base}/ws-evil/secret.txt`, 'OUTSIDE_WORKSPACE'],
    ['sibling ws.bak', () => `${base}/ws.bak/secret.txt`, 'OUTSIDE_WORKSPACE'],
    ['sibling ws2', () => `${base}/ws2/secret.txt`, 'OUTSIDE_WORKSPACE'],
    ['relative climb into a twin', () => '../ws-evil/x', 'OUTSIDE_WORKSPACE'],
    ['the root itself', () => ws, 'ws'],
    ['absolute child', () => `${ws}/file.txt`, 'ws/file.txt'],
    // family 2: traversal
    ['.. at the start', () => '../outside/secret.txt', 'OUTSIDE_WORKSPACE'],
    ['.. deep inside climbing out', () => 'a/b/../../../outside', 'OUTSIDE_WORKSPACE'],
    ['.. that stays inside', () => 'a/b/../../file.txt', 'ws/file.txt'],
    // `..` in the input is applied lexically (like path.resolve and a logical cd); the checked path is what is opened
    ['.. after a symlink out is lexical', () => 'to-outside-dir/../outside/x', 'ws/outside/x'],
    ['.. after a link into a subdir is lexical', () => 'chain-in1/../file.txt', 'ws/file.txt'],
    ['.. after a symlink to the root is lexical', () => 'to-root/../../outside', 'OUTSIDE_WORKSPACE'],
    ['name ..test is ordinary', () => '..test', 'ws/..test'],
    ['name test.. is ordinary', () => 'test..', 'ws/test..'],
    ['name ... is ordinary', () => '.../x', 'ws/.../x'],
    // family 3 and 4: symlinks out, at every kind and depth, and near misses
    ['link to a file outside', () => 'to-outside-file', 'OUTSIDE_WORKSPACE'],
    ['link to a directory outside', () => 'to-outside-dir/new.txt', 'OUTSIDE_WORKSPACE'],
    ['relative link climbing out from depth 2', () => 'a/b/climb/secret.txt', 'OUTSIDE_WORKSPACE'],
    ['absolute link out at depth 3', () => 'a/b/c/deep-out/f.txt', 'OUTSIDE_WORKSPACE'],
    ['chain leaving on its last hop', () => 'chain1/secret.txt', 'OUTSIDE_WORKSPACE'],
    ['chain staying inside', () => 'chain-in1/c/file.txt', 'ws/a/b/c/file.txt'],
    ['dangling link inside', () => 'dangling-in', 'ws/not-yet'],
    ['dangling link pointing outside', () => 'dangling-out', 'OUTSIDE_WORKSPACE'],
    ['new file under a linked directory outside', () => 'to-outside-dir/dir/new/deeper.txt', 'OUTSIDE_WORKSPACE'],
    ['new file under a real directory', () => 'a/b/new/deeper.txt', 'ws/a/b/new/deeper.txt'],
    ['link to / then outside', () => 'to-root/etc/passwd', 'OUTSIDE_WORKSPACE'],
    ['link to / then back into the workspace', () => `to-root${ws}/file.txt`, 'ws/file.txt'],
    ['/proc/self/root detour into the workspace', () => `/proc/self/root${ws}/file.txt`, 'OUTSIDE_WORKSPACE'],
    ['/proc/self/cwd detour', () => '/proc/self/cwd/x', 'OUTSIDE_WORKSPACE'],
    ['/dev/fd detour', () => '/dev/fd/0', 'OUTSIDE_WORKSPACE'],
    ['link to /proc/self/root then outside', () => 'proc-root/etc/passwd', 'OUTSIDE_WORKSPACE'],
    // family 5: root aliases
    ['the root through a link inside it', () => 'to-ws/file.txt', 'ws/file.txt'],
    ['the root through an absolute link inside it', () => 'to-ws-abs/a/new', 'ws/a/new'],
    // a symlinked workspace root: a path spelled through the link is checked canonical against the canonical root
    ['the root spelled through a link to it', () => `${base}/alias-of-ws/file.txt`, 'ws/file.txt'],
    ['a new file spelled through the root link', () => `${base}/alias-of-ws/a/new.txt`, 'ws/a/new.txt'],
    ['the blocklist through the root link', () => `${base}/alias-of-ws/.ssh/id`, 'BLOCKED_PATH'],
    ['a link out, spelled through the root link', () => `${base}/alias-of-ws/to-outside-dir/x`, 'OUTSIDE_WORKSPACE'],
    ['.. out of the root link', () => `${base}/alias-of-ws/../outside/x`, 'OUTSIDE_WORKSPACE'],
    ['a prefix twin of the root link', () => `${base}/alias-of-ws-evil/secret.txt`, 'OUTSIDE_WORKSPACE'],
    ['a prefix twin under a link to its parent', () => `${base}/alias-of-base/ws-evil/secret.txt`, 'OUTSIDE_WORKSPACE'],
    ['the root under a link to its parent', () => `${base}/alias-of-base/ws/file.txt`, 'ws/file.txt'],
    ['a link loop outside is refused as outside', () => `${base}/alias-loop/x`, 'OUTSIDE_WORKSPACE'],
    // family 6: encoding
    ['undefined', () => undefined, 'INVALID_ARGS'],
    ['null', () => null, 'INVALID_ARGS'],
    ['a number', () => 42, 'INVALID_ARGS'],
    ['an array', () => ['file.txt'], 'INVALID_ARGS'],
    ['empty string', () => '', 'INVALID_ARGS'],
    ['NUL byte', () => 'file.txt\0.png', 'INVALID_ARGS'],
    ['an NFD name inside stays inside', () => 'cafe\u0301/menu.txt', 'ws/cafe\u0301/menu.txt'],
    ['doubled slashes', () => 'a//b///c/file.txt', 'ws/a/b/c/file.txt'],
    // family 7: blocklist at any depth, any case, through links
    ['.ssh at the top', () => '.ssh/id', 'BLOCKED_PATH'],
    ['.ssh itself', () => '.ssh', 'BLOCKED_PATH'],
    ['.aws at depth 3', () => 'a/b/c/.aws/credentials', 'BLOCKED_PATH'],
    ['.git/hooks file', () => '.git/hooks/pre-commit', 'BLOCKED_PATH'],
    ['.git/hooks directory itself', () => '.git/hooks', 'BLOCKED_PATH'],
    ['a submodule .git/hooks', () => 'a/.git/hooks/post-checkout', 'BLOCKED_PATH'],
    ['.SSH in upper case', () => '.SSH/id', 'BLOCKED_PATH'],
    ['.Git/HOOKS mixed case', () => '.Git/HOOKS/x', 'BLOCKED_PATH'],
    ['hooks spelled with a Kelvin sign', () => '.git/hoo\u212As/x', 'BLOCKED_PATH'],
    ['.ssh spelled with a long s', () => '.\u017Fsh/id', 'BLOCKED_PATH'],
    ['a link to .ssh', () => 'innocent/authorized_keys', 'BLOCKED_PATH'],
    ['a link to .git/hooks', () => 'hooks-link/pre-commit', 'BLOCKED_PATH'],
    ['hooks under a link to .git', () => 'dotgit/hooks/pre-push', 'BLOCKED_PATH'],
    ['near miss .ssh-backup', () => '.ssh-backup/id', 'ws/.ssh-backup/id'],
    ['near miss .sshd', () => '.sshd/x', 'ws/.sshd/x'],
    ['near miss x.ssh', () => 'x.ssh', 'ws/x.ssh'],
    ['near miss .aws.txt', () => '.aws.txt', 'ws/.aws.txt'],
    ['near miss .git/hook', () => '.git/hook/x', 'ws/.git/hook/x'],
    ['near miss .git/hooks-old', () => '.git/hooks-old/x', 'ws/.git/hooks-old/x'],
    // .github/hooks itself is blocked (Copilot agents run its hooks); hooks deeper under .github are not git's.
    ['near miss hooks under .github', () => '.github/ci/hooks/x', 'ws/.github/ci/hooks/x'],
    ['near miss hooks at the top', () => 'hooks/x', 'ws/hooks/x'],
    ['near miss .git/config', () => '.git/config', 'ws/.git/config'],
    ['near miss .gitignore', () => '.gitignore', 'ws/.gitignore'],
    ['near miss config under a link to .git', () => 'dotgit/config', 'ws/.git/config'],
    // read roots are not writable
    ['a read root', () => `${base}/readroot/doc.txt`, 'OUTSIDE_WORKSPACE'],
    ['a read root through a link', () => 'to-readroot/doc.txt', 'OUTSIDE_WORKSPACE'],
  ])('%s', (_name, input, expected) => {
    expect(write(input())).toBe(expected);
  });

  it.each([
    ['a file outside', () => `${base}/outside/new.txt`, 'outside/new.txt'],
    ['a link to outside', () => 'to-outside-file', 'outside/secret.txt'],
    ['.ssh outside the workspace', () => `${base}/home/.ssh/authorized_keys`, 'BLOCKED_PATH'],
    ['.ssh outside through a link', () => 'to-home-ssh/authorized_keys', 'BLOCKED_PATH'],
    ['near miss: a sibling of .ssh outside', () => `${base}/home/notes.txt`, 'home/notes.txt'],
    ['a read root stays read-only', () => `${base}/readroot/doc.txt`, 'BLOCKED_PATH'],
    ['a read root through a link stays read-only', () => 'to-readroot/doc.txt', 'BLOCKED_PATH'],
    ['near miss: next to a read root', () => `${base}/readroot2/doc.txt`, 'readroot2/doc.txt'],
    ['/proc/self/root detour', () => `/proc/self/root${ws}/file.txt`, 'BLOCKED_PATH'],
    ['/proc/self/cwd detour', () => '/proc/self/cwd/x', 'BLOCKED_PATH'],
    ['/dev/fd detour', () => '/dev/fd/1', 'BLOCKED_PATH'],
    ['/dev/stdout', () => '/dev/stdout', 'BLOCKED_PATH'],
    ['near miss: /devices is not /dev', () => `${base}/devices/x`, 'devices/x'],
  ])('with allowOutsideWorkspace: %s', (_name, input, expected) => {
    expect(write(input(), { allowOutsideWorkspace: true })).toBe(expected);
  });

  it.each([
    ['the excluded path itself', '.git', 'BLOCKED_PATH'],
    ['under the excluded path', '.git/config', 'BLOCKED_PATH'],
    ['under it in another case', '.GIT/config', 'BLOCKED_PATH'],
    ['under it through a link', 'dotgit/config', 'BLOCKED_PATH'],
    ['a nested excluded path', 'build/out/x', 'BLOCKED_PATH'],
    ['near miss .gitignore', '.gitignore', 'ws/.gitignore'],
    ['near miss .github', '.github/workflows/ci.yml', 'ws/.github/workflows/ci.yml'],
    ['near miss sibling of a nested excluded path', 'build/output/x', 'ws/build/output/x'],
    ['near miss parent of a nested excluded path', 'build/x', 'ws/build/x'],
  ])('with excludedPaths: %s', (_name, input, expected) => {
    expect(write(input, { excludedPaths: ['.git', 'build/out'] })).toBe(expected);
  });

  it.each([
    ['inside a read root nested in the workspace', 'vendor/lib.js', [`${'WS'}/vendor`], 'BLOCKED_PATH'],
    ['near miss: next to the nested read root', 'vendor2/lib.js', [`${'WS'}/vendor`], 'ws/vendor2/lib.js'],
    ['inside a read root that contains the workspace', 'file.txt', ['BASE'], 'ws/file.txt'],
  ])('read roots: %s', (_name, input, roots, expected) => {
    const readRoots = roots.map((r) => r.replace('WS', ws).replace('BASE', base));
    expect(write(input, { readRoots })).toBe(expected);
  });

  it('compares Unicode as is: an NFD spelling of an NFC root is another directory on Linux', () => {
    const nfcRoot = path.join(base, 'caf\u00e9');
    const nfdRoot = path.join(base, 'cafe\u0301');
    expect(outcome(() => resolveForWrite(`${nfdRoot}/file.txt`, scope({ workspaceRoot: nfcRoot }), path.posix, fs)).code).toBe('OUTSIDE_WORKSPACE');
    expect(outcome(() => resolveForWrite(`${nfcRoot}/file.txt`, scope({ workspaceRoot: nfcRoot }), path.posix, fs)).code).toBe('ok');
  });

  // A file written at .git (gitdir: elsewhere) points git at a repository of the writer's making.
  it.each<[string, string, 'other' | 'unknown', string]>([
    ['a file tool writing sub/.git', 'sub/.git', 'other', 'BLOCKED_PATH'],
    ['a file tool writing .git at the top', '.git', 'other', 'BLOCKED_PATH'],
    ['a file tool writing .GIT', 'a/.GIT', 'other', 'BLOCKED_PATH'],
    ['near miss: a file tool writing the top .git/config', '.git/config', 'other', 'ws/.git/config'],
    ['a file tool writing a nested .git/commondir', 'sub/.git/commondir', 'other', 'BLOCKED_PATH'],
    ['near miss: a file tool writing a nested .git/HEAD', 'sub/.git/HEAD', 'other', 'ws/sub/.git/HEAD'],
    ['near miss: a file tool writing sub/.gitkeep', 'sub/.gitkeep', 'other', 'ws/sub/.gitkeep'],
    ["near miss: a shell command's sub/.git (mkdir -p sub/.git alike)", 'sub/.git', 'unknown', 'ws/sub/.git'],
  ])('.git as a file: %s', (_name, input, kind, expected) => {
    const result = outcome(() => resolveForWrite(input, scope(), path.posix, fs, kind));
    expect(result.path === undefined ? result.code : path.relative(base, result.path)).toBe(expected);
  });

  it('names the input and the rule in its messages', () => {
    expect(() => resolveForWrite('to-outside-file', scope(), path.posix, fs)).toThrow(/to-outside-file.*symlink.*outside the workspace/);
    expect(() => resolveForWrite('.ssh/id', scope(), path.posix, fs)).toThrow(/\.ssh\/id.*"\.ssh" is on the blocklist/);
  });
});
