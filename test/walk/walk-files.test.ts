import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrepRequest } from '../../src/walk/types.js';
import { globFiles } from '../../workers/walk/glob-files.js';
import { grepFiles } from '../../workers/walk/grep-files.js';
import { createTempTree, type TempTree } from './temp-tree.js';

// The walk itself, run in-process: the same functions the pool thread runs.
let tree: TempTree;
let ws: string;
let scope: { roots: string[] };

beforeAll(() => {
  tree = createTempTree({
    'ws/src/a.ts': 'const Alpha = 1;\nfunction beta() { return alpha; }\n',
    'ws/src/b.js': 'alpha again\n',
    'ws/src/sub/c.ts': 'x\nalpha deep\n',
    'ws/.github/ci.yml': 'alpha: dotfile\n',
    'ws/.git/config': 'alpha in git\n',
    'ws/node_modules/pkg/index.js': 'alpha in modules\n',
    'ws/bin.dat': Buffer.from('alpha\0binary\n'),
    'ws/big.txt': `alpha big\n${'-'.repeat(2000)}\n`,
    'ws/a-link': { link: 'src' },
    'ws/links/inside-file': { link: '../src/b.js' },
    'ws/links/out': { link: '../../outside' },
    'ws/links/out-file': { link: '../../outside/secret.txt' },
    'ws/links/twin': { link: '../../ws-evil' },
    'ws/links/skills': { link: '../../skills' },
    'ws/links/loop': { link: '..' },
    'ws/links/dangling': { link: 'nowhere' },
    'ws/links/self': { link: 'self' },
    'ws-evil/evil.txt': 'alpha evil twin\n',
    'outside/secret.txt': 'alpha secret\n',
    'skills/guide.md': 'alpha skill\n',
    'skills/back': { link: '../ws' },
  });
  ws = tree.path('ws');
  scope = { roots: [ws, tree.path('skills')] };
});

afterAll(() => tree.remove());

function grepPaths(overrides: Partial<GrepRequest> = {}): string[] {
  return grepFiles({ root: ws, pattern: 'alpha', maxResults: 100, scope, maxFileBytes: 1000, ...overrides }).matches.map((m) => `${m.path}:${m.line}`);
}

describe('grepFiles', () => {
  it.each([
    {
      rule: 'finds matches in the tree, skipping ignored dirs, binary and big files, and links out of scope',
      request: {},
      want: ['.github/ci.yml:1', 'links/inside-file:1', 'links/skills/guide.md:1', 'src/a.ts:2', 'src/b.js:1', 'src/sub/c.ts:2'],
    },
    {
      rule: 'matches case-insensitively when asked',
      request: { ignoreCase: true },
      want: ['.github/ci.yml:1', 'links/inside-file:1', 'links/skills/guide.md:1', 'src/a.ts:1', 'src/a.ts:2', 'src/b.js:1', 'src/sub/c.ts:2'],
    },
    { rule: 'filters files by name at any depth', request: { glob: '*.ts' }, want: ['src/a.ts:2', 'src/sub/c.ts:2'] },
    { rule: 'filters files by path when the glob has a slash', request: { glob: 'src/*.{ts,js}' }, want: ['src/a.ts:2', 'src/b.js:1'] },
    {
      rule: 'walks .git and node_modules with includeIgnored',
      request: { includeIgnored: true, glob: '**/{config,index.js}' },
      want: ['.git/config:1', 'node_modules/pkg/index.js:1'],
    },
    { rule: 'reads files up to maxFileBytes', request: { maxFileBytes: 10_000, glob: 'big.txt' }, want: ['big.txt:1'] },
    { rule: 'greps a single file as the root, shown workspace-relative', request: { root: 'ws/src/sub/c.ts' }, want: ['src/sub/c.ts:2'] },
    { rule: 'greps from a subdirectory, shown workspace-relative', request: { root: 'ws/src/sub' }, want: ['src/sub/c.ts:2'] },
  ])('$rule', ({ request, want }) => {
    const root = 'root' in request ? tree.path(request.root) : ws;
    expect(grepPaths({ ...request, root })).toEqual(want);
  });

  it.each([
    { rule: 'a link to an outside directory', pattern: 'secret' },
    { rule: 'a link to a prefix twin of the workspace', pattern: 'evil' },
    { rule: 'a binary file', pattern: 'binary' },
  ])('never reports content reached through $rule', ({ pattern }) => {
    expect(grepPaths({ pattern, maxFileBytes: 10_000 })).toEqual([]);
  });

  it('reports a directory reachable twice once, under its real name', () => {
    expect(grepPaths({ pattern: 'again' })).toEqual(['links/inside-file:1', 'src/b.js:1']);
  });

  it('counts only the text files it read', () => {
    expect(grepFiles({ root: tree.path('ws/src'), pattern: 'zzz', maxResults: 10, scope }).filesScanned).toBe(3);
  });

  it.each([
    { maxResults: 2, want: { count: 2, truncated: true } },
    { maxResults: 6, want: { count: 6, truncated: false } },
  ])('bounds output at maxResults $maxResults', ({ maxResults, want }) => {
    const outcome = grepFiles({ root: ws, pattern: 'alpha', maxResults, scope, maxFileBytes: 1000 });
    expect({ count: outcome.matches.length, truncated: outcome.truncated }).toEqual(want);
  });

  it.each([
    { rule: 'outside every scope root', root: 'outside', code: 'NOT_READABLE' },
    { rule: 'a link resolving outside', root: 'ws/links/out', code: 'NOT_READABLE' },
    { rule: 'missing', root: 'ws/missing', code: 'NOT_FOUND' },
  ])('refuses a root $rule with $code', ({ root, code }) => {
    expect(() => grepFiles({ root: tree.path(root), pattern: 'alpha', maxResults: 10, scope })).toThrow(
      expect.objectContaining({ code, message: expect.stringContaining(tree.path(root)) }),
    );
  });

  it('refuses an invalid regex with INVALID_ARGS naming it', () => {
    expect(() => grepPaths({ pattern: 'a[' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGS', message: expect.stringContaining("'a['") }));
  });

  it('skips a FIFO and a link to one instead of blocking on it', () => {
    const fifoTree = createTempTree({ 'ok.txt': 'alpha\n', 'to-fifo': { link: 'fifo' } });
    try {
      execFileSync('mkfifo', [fifoTree.path('fifo')]);
      const outcome = grepFiles({ root: fifoTree.root, pattern: 'alpha', maxResults: 10, scope: { roots: [fifoTree.root] } });
      expect(outcome.matches.map((m) => m.path)).toEqual(['ok.txt']);
    } finally {
      fifoTree.remove();
    }
  });

  it('cuts very long lines around the match', () => {
    const long = createTempTree({ 'min.js': `${'x'.repeat(5000)}alpha${'y'.repeat(5000)}` });
    try {
      const [match] = grepFiles({ root: long.root, pattern: 'alpha', maxResults: 10, scope: { roots: [long.root] } }).matches;
      expect(match?.text.length).toBeLessThanOrEqual(302);
      expect(match?.text).toContain('alpha');
    } finally {
      long.remove();
    }
  });
});

describe('globFiles', () => {
  it.each([
    { pattern: '**/*.ts', want: ['src/a.ts', 'src/sub/c.ts'] },
    { pattern: 'src/*', want: ['src/a.ts', 'src/b.js'] },
    { pattern: 'src/**', want: ['src/a.ts', 'src/b.js', 'src/sub/c.ts'] },
    { pattern: '*.{txt,dat}', want: ['big.txt', 'bin.dat'] },
    { pattern: 'links/*', want: ['links/inside-file'] },
    { pattern: 'links/**', want: ['links/inside-file', 'links/skills/guide.md'] },
    { pattern: '**/secret.txt', want: [] },
    { pattern: '**/evil.txt', want: [] },
    { pattern: '**/config', want: [] },
    { pattern: '.github/*', want: ['.github/ci.yml'] },
  ])('$pattern finds $want', ({ pattern, want }) => {
    expect(globFiles({ root: ws, pattern, maxResults: 100, scope })).toEqual({ paths: want, truncated: false });
  });

  it('walks ignored dirs with includeIgnored', () => {
    expect(globFiles({ root: ws, pattern: '**/index.js', maxResults: 100, scope, includeIgnored: true }).paths).toEqual(['node_modules/pkg/index.js']);
  });

  it('bounds output at maxResults and sorts what it kept', () => {
    expect(globFiles({ root: ws, pattern: 'src/**', maxResults: 2, scope })).toEqual({ paths: ['src/a.ts', 'src/b.js'], truncated: true });
  });

  it('terminates on link loops and links back into the workspace from a read root, shown absolute outside the workspace', () => {
    const paths = globFiles({ root: tree.path('skills'), pattern: '**', maxResults: 1000, scope }).paths;
    expect(paths).toContain(tree.path('skills/guide.md'));
    expect(paths).toContain(tree.path('skills/back/src/a.ts'));
    expect(paths.filter((p) => p.endsWith('/a.ts'))).toEqual([tree.path('skills/back/src/a.ts')]);
  });

  it('shows paths under a subdirectory root relative to the workspace', () => {
    expect(globFiles({ root: tree.path('ws/src'), pattern: '*.ts', maxResults: 100, scope }).paths).toEqual(['src/a.ts']);
  });

  it('refuses a file root with INVALID_ARGS', () => {
    expect(() => globFiles({ root: tree.path('ws/src/a.ts'), pattern: '*', maxResults: 10, scope })).toThrow(expect.objectContaining({ code: 'INVALID_ARGS' }));
  });
});
