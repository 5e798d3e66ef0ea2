import { realpathSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { resolveForWrite, type PathScope } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../../runtime/fs/index.js';
import { addEntries, createTempTree, removeTempTree } from './temp-tree.js';

let base = '';
let scope: PathScope;
const fs = createNodeGuardFs();
const SEGMENTS = ['..', '.', '', 'a', 'b', 'file.txt', 'new', '...', 'ws', 'ws-evil', 'outside', 'to-out', 'to-ws', 'to-root', 'climb', 'up', 'loop', 'dangling-out', 'tmp'];
const EXPECTED_REFUSALS = new Set(['OUTSIDE_WORKSPACE', 'SYMLINK_LOOP', 'BLOCKED_PATH']);

beforeAll(() => {
  base = createTempTree({ 'ws/a/b/file.txt': 'x', 'ws/file.txt': 'x', 'ws-evil/file.txt': 'x', 'outside/a/file.txt': 'x' });
  addEntries(base, {
    'ws/to-out': { link: '../outside' },
    'ws/a/climb': { link: '../../outside/a' },
    'ws/a/b/up': { link: '..' },
    'ws/to-ws': { link: path.join(base, 'ws') },
    'ws/to-root': { link: '/' },
    'ws/loop': { link: 'a/loop-back' },
    'ws/a/loop-back': { link: '../loop' },
    'ws/dangling-out': { link: '../ws-evil/new' },
    'outside/to-ws': { link: '../ws/a' },
  });
  scope = { workspaceRoot: path.join(base, 'ws'), readRoots: [], allowOutsideWorkspace: false, excludedPaths: [] };
});
afterAll(() => removeTempTree(base));

/** Where the kernel would put a write to `p`: the real path of its nearest existing ancestor plus the missing tail. */
function locateOnDisk(p: string): string {
  const tail: string[] = [];
  let current = p;
  while (fs.lstat(current) === undefined) {
    tail.unshift(path.basename(current));
    current = path.dirname(current);
  }
  return path.join(realpathSync.native(current), ...tail);
}

describe('resolveForWrite property', () => {
  it('never returns a path whose real location is outside the workspace', () => {
    const prefix = fc.constantFrom('', '/', `${base}/`, `${base}/ws/`, `${base}/outside/`);
    const input = fc.tuple(prefix, fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 8 })).map(([p, segs]) => p + segs.join('/'));
    fc.assert(
      fc.property(input, (raw) => {
        let checked: string;
        try {
          checked = resolveForWrite(raw, scope, path.posix, fs);
        } catch (error) {
          const code = error instanceof ToolwardenError ? error.code : String(error);
          // INVALID_ARGS only for inputs that are empty after joining
          if (code === 'INVALID_ARGS') return raw === '';
          return EXPECTED_REFUSALS.has(code);
        }
        const onDisk = locateOnDisk(checked);
        const ws = scope.workspaceRoot;
        return onDisk === checked && (onDisk === ws || onDisk.startsWith(`${ws}/`));
      }),
      { numRuns: 600, seed: 20240611 },
    );
  });
});
