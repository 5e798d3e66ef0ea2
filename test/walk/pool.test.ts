import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import { WalkPool } from '../../runtime/walk/index.js';
import { ensureWalkTaskBuilt } from './ensure-built.js';
import { createTempTree, type TempTree } from './temp-tree.js';

// The pool end to end: requests and errors cross a real piscina thread boundary.
let tree: TempTree;
let pool: WalkPool;
let scope: { roots: string[] };

// `(a+)+$` against many a's and a final b backtracks exponentially: it would run for ages.
const CATASTROPHIC = '(a+)+$';

beforeAll(() => {
  ensureWalkTaskBuilt();
  tree = createTempTree({
    'src/a.ts': 'export const needle = 1;\n',
    'src/b.ts': 'nothing\n',
    'slow.txt': `${'a'.repeat(40)}b\n`,
  });
  scope = { roots: [tree.root] };
  // One thread: the next walk can only run if the aborted one really was killed.
  pool = new WalkPool({ maxThreads: 1 });
});

afterAll(async () => {
  await pool.close();
  tree.remove();
});

function grepNeedle(pattern = 'needle'): ReturnType<WalkPool['grep']> {
  return pool.grep({ root: tree.root, pattern, maxResults: 10, scope }, 10_000);
}

describe('WalkPool', () => {
  it('greps in a pool thread', async () => {
    await expect(grepNeedle()).resolves.toEqual({ matches: [{ path: 'src/a.ts', line: 1, text: 'export const needle = 1;' }], truncated: false, filesScanned: 3 });
  });

  it('globs in a pool thread', async () => {
    await expect(pool.glob({ root: tree.root, pattern: '**/*.ts', maxResults: 10, scope }, 10_000)).resolves.toEqual({ paths: ['src/a.ts', 'src/b.ts'], truncated: false });
  });

  it.each([
    { rule: 'an invalid regex', run: () => grepNeedle('a(b'), code: 'INVALID_ARGS', names: "'a(b'" },
    { rule: 'a glob climbing out', run: () => pool.glob({ root: tree.root, pattern: '../*', maxResults: 10, scope }, 10_000), code: 'INVALID_ARGS', names: "'../*'" },
    { rule: 'a root outside the scope', run: () => pool.grep({ root: tree.root, pattern: 'x', maxResults: 10, scope: { roots: [tree.path('src')] } }, 10_000), code: 'NOT_READABLE', names: 'outside the workspace' },
    { rule: 'a zero maxResults', run: () => pool.grep({ root: tree.root, pattern: 'x', maxResults: 0, scope }, 10_000), code: 'INVALID_ARGS', names: 'maxResults' },
    { rule: 'a zero timeout', run: () => pool.grep({ root: tree.root, pattern: 'x', maxResults: 1, scope }, 0), code: 'INVALID_ARGS', names: 'timeout' },
  ])('rejects $rule with a rebuilt ToolwardenError $code', async ({ run, code, names }) => {
    const error: unknown = await run().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolwardenError);
    expect(error).toMatchObject({ code, message: expect.stringContaining(names) });
  });

  it('ends a catastrophic regex with TIMEOUT naming the pattern and the limit, then keeps working', async () => {
    const error: unknown = await pool.grep({ root: tree.root, pattern: CATASTROPHIC, maxResults: 10, scope }, 300).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/\(a\+\)\+\$.*300 ms/) });
    await expect(grepNeedle()).resolves.toMatchObject({ matches: [{ path: 'src/a.ts' }] });
  });

  it.each([
    { rule: 'a plain reason', reason: 'user pressed stop', code: 'ABORTED' },
    { rule: 'a ToolwardenError reason', reason: new ToolwardenError('SESSION_CLOSED', 'session s1 is closed'), code: 'SESSION_CLOSED' },
  ])('aborts a running walk through the signal, with $rule', async ({ reason, code }) => {
    const controller = new AbortController();
    const running = pool.grep({ root: tree.root, pattern: CATASTROPHIC, maxResults: 10, scope }, 30_000, controller.signal);
    setTimeout(() => controller.abort(reason), 50);
    await expect(running).rejects.toMatchObject({ code });
    await expect(grepNeedle()).resolves.toMatchObject({ matches: [{ path: 'src/a.ts' }] });
  });

  it.each([
    { rule: 'a plain reason', reason: 'gone', code: 'ABORTED' },
    { rule: 'a ToolwardenError reason', reason: new ToolwardenError('SESSION_CLOSED', 'closed'), code: 'SESSION_CLOSED' },
  ])('refuses to start with a signal already aborted with $rule', async ({ reason, code }) => {
    const signal = AbortSignal.abort(reason);
    await expect(pool.glob({ root: tree.root, pattern: '*', maxResults: 1, scope }, 1000, signal)).rejects.toMatchObject({ code });
  });
});
