import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { resolveForWrite, resolveReadablePath, type CheckedPath, type PathScope } from '../../src/path-guard/index.js';
import {
  createNodeGuardFs,
  createReadCheck,
  createWriteCheck,
  mkdirVerified,
  openVerified,
  removeVerified,
  writeFileAtomic,
} from '../../runtime/fs/index.js';
import { createTempTree, removeTempTree } from '../path-guard/temp-tree.js';

let base = '';
let scope: PathScope;
const fs = createNodeGuardFs();

beforeEach(() => {
  base = createTempTree({ 'ws/f.txt': 'inside', 'ws/d/f.txt': 'inside d', 'ws/p/q/keep': 'x', 'outside/secret.txt': 'secret', 'outside/d/f.txt': 'outside d', 'outside/q/keep': 'x' });
  scope = { workspaceRoot: path.join(base, 'ws'), readRoots: [], allowOutsideWorkspace: false, excludedPaths: [] };
});
afterEach(() => removeTempTree(base));

const forWrite = (p: string) => resolveForWrite(p, scope, path.posix, fs);
const forRead = (p: string) => resolveReadablePath(p, scope, path.posix, fs);
const codeOf = async (call: () => unknown): Promise<string> => {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof ToolwardenError) return error.code;
    throw error;
  }
};

/** Swaps the checked file for a symlink to the outside secret, as an attacker racing the broker would. */
function swapFileForLink(checked: string): void {
  unlinkSync(checked);
  symlinkSync(path.join(base, 'outside/secret.txt'), checked);
}

/** Swaps a workspace directory for a symlink to an outside directory with the same layout. */
function swapDirForLink(relative: string, outside: string): void {
  const dir = path.join(base, 'ws', relative);
  renameSync(dir, `${dir}-moved`);
  symlinkSync(path.join(base, 'outside', outside), dir);
}

describe('the race: a path changed between check and use', () => {
  // As the session checks: the real path a descriptor reached, or the checked path itself.
  const operations: [string, (checked: CheckedPath) => unknown, string][] = [
    ['openVerified read', (c) => closeSync(openVerified(c, 'read', createReadCheck(scope))), 'NOT_READABLE'],
    ['openVerified write', (c) => closeSync(openVerified(c, 'write', createWriteCheck(scope))), 'OUTSIDE_WORKSPACE'],
    ['writeFileAtomic', (c) => writeFileAtomic(c, 'pwned', createWriteCheck(scope)), 'BLOCKED_PATH'],
    ['removeVerified', (c) => removeVerified(c, createWriteCheck(scope)), 'BLOCKED_PATH'],
  ];

  it.each(operations)('%s refuses a file swapped for a symlink', async (_name, operate) => {
    const checked = forWrite('f.txt');
    swapFileForLink(checked);
    expect(await codeOf(() => operate(checked))).toBe('SYMLINK_LOOP');
    expect(readFileSync(path.join(base, 'outside/secret.txt'), 'utf8')).toBe('secret');
  });

  it.each(operations)('%s refuses a parent directory swapped for a symlink', async (_name, operate, expected) => {
    const checked = forWrite('d/f.txt');
    swapDirForLink('d', 'd');
    expect(await codeOf(() => operate(checked))).toBe(expected);
    expect(readFileSync(path.join(base, 'outside/d/f.txt'), 'utf8')).toBe('outside d');
    expect(readdirSync(path.join(base, 'outside/d'))).toEqual(['f.txt']);
  });

  it.each(operations)('%s works when nothing was swapped (near miss)', async (_name, operate) => {
    const checked = forWrite('d/f.txt');
    expect(await codeOf(() => operate(checked))).toBe('ok');
  });

  it('mkdirVerified refuses when an existing parent was swapped for a link', async () => {
    const checked = forWrite('p/q/new/deeper');
    swapDirForLink('p', '.');
    expect(await codeOf(() => mkdirVerified(checked, createWriteCheck(scope)))).toBe('BLOCKED_PATH');
    expect(existsSync(path.join(base, 'outside/q/new'))).toBe(false);
  });
});

describe('the race injected from inside isAllowed (between the checks and the path-based call)', () => {
  /** A check that passes, then swaps `relative` for a link to an outside twin: the attacker wins the race after it. */
  function swappingCheck(relative: string, outside: string) {
    let swapped = false;
    return () => {
      if (!swapped) {
        swapped = true;
        swapDirForLink(relative, outside);
      }
      return true;
    };
  }

  it('writeFileAtomic refuses, writes nothing outside and removes its temp file', async () => {
    const checked = forWrite('d/f.txt');
    expect(await codeOf(() => writeFileAtomic(checked, 'pwned', swappingCheck('d', 'd')))).toBe('BLOCKED_PATH');
    expect(readdirSync(path.join(base, 'outside/d'))).toEqual(['f.txt']);
    expect(readFileSync(path.join(base, 'outside/d/f.txt'), 'utf8')).toBe('outside d');
  });

  it('removeVerified refuses and deletes nothing outside', async () => {
    const checked = forWrite('d/f.txt');
    expect(await codeOf(() => removeVerified(checked, swappingCheck('d', 'd')))).toBe('BLOCKED_PATH');
    expect(existsSync(path.join(base, 'outside/d/f.txt'))).toBe(true);
  });

  it('mkdirVerified keeps making directories in the verified one, never through the swapped-in link', async () => {
    const checked = forWrite('p/q/n1/n2');
    mkdirSync(path.join(base, 'outside/q/n1'));
    expect(await codeOf(() => mkdirVerified(checked, swappingCheck('p', '.')))).toBe('ok');
    expect(readdirSync(path.join(base, 'outside/q/n1'))).toEqual([]);
    expect(statSync(path.join(base, 'ws/p-moved/q/n1/n2')).isDirectory()).toBe(true);
  });
});

describe('openVerified', () => {
  it('opens a checked file for reading', async () => {
    const fd = openVerified(forRead('f.txt'), 'read', createReadCheck(scope));
    try {
      expect(readFileSync(fd, 'utf8')).toBe('inside');
    } finally {
      closeSync(fd);
    }
  });

  it('refuses a missing file with NOT_FOUND', async () => {
    expect(await codeOf(() => openVerified(forRead('nope.txt'), 'read', createReadCheck(scope)))).toBe('NOT_FOUND');
  });

  it('refuses a FIFO without blocking', async () => {
    execFileSync('mkfifo', [path.join(base, 'ws/pipe')]);
    expect(await codeOf(() => openVerified(forRead('pipe'), 'read', createReadCheck(scope)))).toBe('UNSUPPORTED_FILE');
  });

  it('refuses when isAllowed says no, naming the checked path and never where it now leads', async () => {
    expect(() => openVerified(forRead('f.txt'), 'read', () => false)).toThrow(/f\.txt changed after the check: it now leads where this session may not read it/);
  });
});

describe('writeFileAtomic', () => {
  it('creates a new file and leaves no temp file', async () => {
    await writeFileAtomic(forWrite('d/new.txt'), 'hello', createWriteCheck(scope));
    expect(readFileSync(path.join(base, 'ws/d/new.txt'), 'utf8')).toBe('hello');
    expect(readdirSync(path.join(base, 'ws/d')).sort()).toEqual(['f.txt', 'new.txt']);
  });

  it('replaces a file and keeps its mode', async () => {
    chmodSync(path.join(base, 'ws/f.txt'), 0o640);
    await writeFileAtomic(forWrite('f.txt'), new Uint8Array([104, 105]), createWriteCheck(scope));
    expect(readFileSync(path.join(base, 'ws/f.txt'), 'utf8')).toBe('hi');
    expect(statSync(path.join(base, 'ws/f.txt')).mode & 0o777).toBe(0o640);
  });

  it('removes its temp file when writing the data fails', async () => {
    const unwritable = { length: 3 } as unknown as Uint8Array;
    expect(await codeOf(() => writeFileAtomic(forWrite('d/f.txt'), unwritable, createWriteCheck(scope)))).toBe('IO_ERROR');
    expect(readdirSync(path.join(base, 'ws/d'))).toEqual(['f.txt']);
    expect(readFileSync(path.join(base, 'ws/d/f.txt'), 'utf8')).toBe('inside d');
  });

  it('reports whether it created the file', async () => {
    expect(await writeFileAtomic(forWrite('d/new.txt'), 'a', createWriteCheck(scope))).toEqual({ created: true });
    expect(await writeFileAtomic(forWrite('d/new.txt'), 'b', createWriteCheck(scope))).toEqual({ created: false });
  });

  it('refuses a directory at the target', async () => {
    expect(await codeOf(() => writeFileAtomic(forWrite('d'), 'x', createWriteCheck(scope)))).toBe('CONFLICT');
  });

  it('refuses when the parent does not exist', async () => {
    expect(await codeOf(() => writeFileAtomic(forWrite('missing/x.txt'), 'x', createWriteCheck(scope)))).toBe('NOT_FOUND');
  });
});

describe('mkdirVerified', () => {
  it('creates missing parents one by one', async () => {
    mkdirVerified(forWrite('a/b/c'), createWriteCheck(scope));
    expect(statSync(path.join(base, 'ws/a/b/c')).isDirectory()).toBe(true);
  });

  it('accepts an existing directory', async () => {
    expect(await codeOf(() => mkdirVerified(forWrite('d'), createWriteCheck(scope)))).toBe('ok');
  });

  it('refuses a file in the way', async () => {
    expect(await codeOf(() => mkdirVerified(forWrite('f.txt/sub'), createWriteCheck(scope)))).toBe('CONFLICT');
  });

  it('stops at the first created directory isAllowed refuses', async () => {
    const refuseY = (p: string) => !p.endsWith('/y');
    expect(await codeOf(() => mkdirVerified(forWrite('x/y/z'), refuseY))).toBe('OUTSIDE_WORKSPACE');
    expect(existsSync(path.join(base, 'ws/x/y'))).toBe(true);
    expect(existsSync(path.join(base, 'ws/x/y/z'))).toBe(false);
  });
});

describe('removeVerified', () => {
  it.each([
    ['a file', 'f.txt', 'ok'],
    ['a missing file', 'nope', 'NOT_FOUND'],
    ['a directory', 'd', 'CONFLICT'],
  ])('%s', async (_name, input, expected) => {
    expect(await codeOf(() => removeVerified(forWrite(input), createWriteCheck(scope)))).toBe(expected);
  });
});

describe('createNodeGuardFs and the scope checks', () => {
  it('reports missing entries, entries under a file and links', async () => {
    mkdirSync(path.join(base, 'ws/e'));
    symlinkSync('f.txt', path.join(base, 'ws/link'));
    writeFileSync(path.join(base, 'ws/e/g'), '');
    expect(fs.lstat(path.join(base, 'ws/nope'))).toBeUndefined();
    expect(fs.lstat(path.join(base, 'ws/f.txt/x'))).toBeUndefined();
    expect(fs.lstat(path.join(base, 'ws/link'))?.isSymbolicLink()).toBe(true);
    expect(fs.readlink(path.join(base, 'ws/link'))).toBe('f.txt');
  });

  it.each([
    ['write check: inside', createWriteCheck, 'ws/f.txt', true],
    ['write check: outside', createWriteCheck, 'outside/secret.txt', false],
    ['read check: inside', createReadCheck, 'ws/f.txt', true],
    ['read check: outside', createReadCheck, 'outside/secret.txt', false],
  ])('%s', (_name, create, relative, expected) => {
    expect(create(scope)(path.join(base, relative))).toBe(expected);
  });
});
