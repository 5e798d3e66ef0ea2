import { describe, expect, it } from 'vitest';
import { compileGlob, type GlobMode } from '../../src/walk/glob-matcher.js';

describe('compileGlob matching', () => {
  it.each<[string, GlobMode, string, boolean]>([
    ['**/*.ts', 'path', 'a.ts', true],
    ['**/*.ts', 'path', 'src/deep/a.ts', true],
    ['**/*.ts', 'path', 'src/a.tsx', false],
    ['src/*', 'path', 'src/a.ts', true],
    ['src/*', 'path', 'src/sub/a.ts', false],
    ['src/*', 'path', 'lib/src/a.ts', false],
    ['*.ts', 'path', 'a.ts', true],
    ['*.ts', 'path', 'src/a.ts', false],
    ['*.ts', 'filter', 'src/a.ts', true],
    ['src/*.ts', 'filter', 'lib/src/a.ts', false],
    ['**/*.yml', 'path', '.github/workflows/ci.yml', true],
    ['*', 'path', '.env', true],
    ['{src,lib}/*.ts', 'path', 'lib/a.ts', true],
    ['./src/*.ts', 'path', 'src/a.ts', true],
  ])('%s (%s) against %s: %s', (pattern, mode, path, want) => {
    expect(compileGlob(pattern, mode).matches(path)).toBe(want);
  });
});

describe('compileGlob pruning hints', () => {
  it.each([
    { pattern: 'src/**/*.ts', prefix: ['src'], maxSegments: undefined },
    { pattern: 'src/*', prefix: ['src'], maxSegments: 2 },
    { pattern: 'src/a.ts', prefix: ['src', 'a.ts'], maxSegments: 2 },
    { pattern: './src/*', prefix: ['src'], maxSegments: 2 },
    { pattern: '*.ts', prefix: [], maxSegments: 1 },
    { pattern: '**/*.ts', prefix: [], maxSegments: undefined },
    { pattern: '{src,lib}/*.ts', prefix: [], maxSegments: undefined },
    { pattern: 'a/b*/c', prefix: ['a'], maxSegments: 3 },
  ])('$pattern enters $prefix, at most $maxSegments segments deep', ({ pattern, prefix, maxSegments }) => {
    const glob = compileGlob(pattern, 'path');
    expect({ prefix: glob.prefix, maxSegments: glob.maxSegments }).toEqual({ prefix, maxSegments });
  });

  it('a name-only filter prunes nothing', () => {
    const glob = compileGlob('*.ts', 'filter');
    expect({ prefix: glob.prefix, maxSegments: glob.maxSegments }).toEqual({ prefix: [], maxSegments: undefined });
  });
});

describe('compileGlob refusals', () => {
  it.each([
    { rule: 'an empty pattern', pattern: '', says: 'non-empty' },
    { rule: 'an absolute pattern', pattern: '/etc/*', says: 'absolute' },
    { rule: 'a drive-letter pattern', pattern: 'C:\\x\\*', says: 'absolute' },
    { rule: 'a leading ..', pattern: '../*.ts', says: "'..'" },
    { rule: 'a .. in the middle', pattern: 'src/../../x', says: "'..'" },
    { rule: 'a NUL byte', pattern: 'a\0b', says: 'NUL' },
  ])('refuses $rule with INVALID_ARGS', ({ pattern, says }) => {
    expect(() => compileGlob(pattern, 'path')).toThrow(expect.objectContaining({ code: 'INVALID_ARGS', message: expect.stringContaining(says) }));
  });

  it.each(['..test', 'test..', '...'])('accepts %s/*: names that only look like traversal are ordinary', (name) => {
    expect(compileGlob(`${name}/*`, 'path').matches(`${name}/a.ts`)).toBe(true);
  });
});
