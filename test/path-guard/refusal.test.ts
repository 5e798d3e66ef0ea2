import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { PathRefusal, refusalText, resolveForWrite, resolveReadablePath, resolveWorkspacePath, restateRefusal, type PathScope } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../../runtime/fs/index.js';
import { addEntries, createTempTree, removeTempTree } from './temp-tree.js';

// Threat family 24 at the guard: a refusal names the path as written and the rule, never where a link leads, and
// reads the same whether what lies outside exists, is a directory, a dangling link or a loop.
let base = '';
const fs = createNodeGuardFs();
let scope: PathScope;

beforeAll(() => {
  base = createTempTree({ 'ws/a.txt': 'a', 'ro/r.txt': 'r', 'outside/dir/f.txt': 'secret', 'outside/file.txt': 'secret' });
  addEntries(base, {
    'ws/out': { link: path.join(base, 'outside') },
    'ws/out-file': { link: path.join(base, 'outside/file.txt') },
    'ws/out-missing': { link: path.join(base, 'outside/missing.txt') },
    'ws/out-loop': { link: path.join(base, 'outside/loop') },
    'ws/out-chain': { link: path.join(base, 'outside/chain1') },
    'ws/in-loop': { link: 'in-loop' },
    'ws/to-ro': { link: '../ro' },
    'outside/loop': { link: 'loop' },
    'outside/chain1': { link: 'chain2' },
    'outside/chain2': { link: 'chain3' },
    'outside/chain3': { link: 'file.txt' },
  });
  scope = { workspaceRoot: path.join(base, 'ws'), readRoots: [path.join(base, 'ro')], allowOutsideWorkspace: false, excludedPaths: [] };
});
afterAll(() => removeTempTree(base));

type Resolve = (input: string) => unknown;
const GUARDS: [string, Resolve][] = [
  ['read', (input) => resolveReadablePath(input, scope, path.posix, fs)],
  ['write', (input) => resolveForWrite(input, scope, path.posix, fs, 'other')],
];

function refusal(guard: Resolve, input: string): { code: string; message: string } {
  try {
    guard(input);
  } catch (error) {
    if (error instanceof ToolwardenError) return { code: error.code, message: error.message.replaceAll(base, '@B@') };
    throw error;
  }
  throw new Error(`${input} was not refused`);
}

describe.each(GUARDS)('the %s guard refuses without telling what lies outside', (_name, guard) => {
  it.each([
    ['a file and a missing file outside', 'BASE/outside/{X}', 'file.txt', 'missing.txt'],
    ['a directory and a missing one outside', 'BASE/outside/{X}/f.txt', 'dir', 'nodir'],
    ['a live and a dangling link out', '{X}', 'out-file', 'out-missing'],
    ['a loop outside and a file outside', '{X}', 'out-loop', 'out-file'],
    ['a long chain outside and a file outside', '{X}', 'out-chain', 'out-file'],
    ['a file and a missing file through a link out', 'out/{X}', 'file.txt', 'missing.txt'],
    ['a file and a missing file above the workspace', '../outside/{X}', 'file.txt', 'missing.txt'],
  ])('%s read the same', (_case, template, existing, missing) => {
    const at = (name: string): string => template.replace('BASE', base).replace('{X}', name);
    const a = refusal(guard, at(existing));
    const b = refusal(guard, at(missing));
    expect({ ...a, message: a.message.replaceAll(existing, '{X}') }).toEqual({ ...b, message: b.message.replaceAll(missing, '{X}') });
    expect(a.message).not.toMatch(template.startsWith('BASE') ? /secret|chain\d/ : /@B@\/outside|secret|chain\d/);
    expect(a.code).not.toBe('SYMLINK_LOOP');
  });
});

describe('refusal texts', () => {
  it.each([
    ['a read through a link out', () => resolveReadablePath('out/file.txt', scope, path.posix, fs), 'NOT_READABLE', 'path out/file.txt leads through a symlink to a path that is outside the workspace and every read root (@B@/ws, @B@/ro)'],
    ['a read above the workspace', () => resolveReadablePath('../outside/file.txt', scope, path.posix, fs), 'NOT_READABLE', 'path ../outside/file.txt is outside the workspace and every read root (@B@/ws, @B@/ro)'],
    ['a write through a link out', () => resolveForWrite('out/new.txt', scope, path.posix, fs), 'OUTSIDE_WORKSPACE', 'path out/new.txt leads through a symlink to a path that is outside the workspace @B@/ws'],
    ['a write through a link into a read root', () => resolveForWrite('to-ro/r.txt', scope, path.posix, fs), 'OUTSIDE_WORKSPACE', 'path to-ro/r.txt leads through a symlink to a path that is outside the workspace @B@/ws'],
    ['a loop among the session\'s own links', () => resolveReadablePath('in-loop', scope, path.posix, fs), 'SYMLINK_LOOP', 'path in-loop leads through a symlink loop or more than 8 symlinks'],
    ['a workspace path above the root', () => resolveWorkspacePath('../outside/file.txt', scope, path.posix), 'OUTSIDE_WORKSPACE', 'path ../outside/file.txt is outside the workspace @B@/ws'],
    ['a magic path', () => resolveReadablePath('/proc/self/environ', scope, path.posix, fs), 'NOT_READABLE', 'path /proc/self/environ is a kernel magic path (/proc, /dev/fd), which is never readable'],
  ])('%s names the path as written and the rule', (_name, call, code, message) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PathRefusal);
    expect({ code: (error as PathRefusal).code, message: (error as PathRefusal).message.replaceAll(base, '@B@') }).toEqual({ code, message });
  });

  it('restates a refusal about the path as another caller wrote it', () => {
    const original = new PathRefusal('NOT_READABLE', '/elsewhere/x', 'is outside the workspace', false);
    expect(restateRefusal(original, 'link/x', true).message).toBe(refusalText('link/x', 'is outside the workspace', true));
    // An error that did not come from the guard keeps its code and says nothing of its own message.
    const foreign = restateRefusal(new ToolwardenError('NOT_READABLE', 'x resolves to /elsewhere/secret'), 'x', false);
    expect({ code: foreign.code, message: foreign.message }).toEqual({ code: 'NOT_READABLE', message: 'path x is outside what this session may read' });
    expect(restateRefusal(new Error('/elsewhere'), 'x', false).message).not.toContain('/elsewhere');
  });

  it('near miss: a path spelled through a link into the workspace is still accepted', () => {
    addEntries(base, { 'to-ws': { link: 'ws' } });
    expect(resolveReadablePath(path.join(base, 'to-ws/a.txt'), scope, path.posix, fs)).toBe(path.join(base, 'ws/a.txt'));
  });
});
