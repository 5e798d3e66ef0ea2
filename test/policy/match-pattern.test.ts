import { describe, expect, it } from 'vitest';
import { compilePathPattern, compileWordPattern } from '../../src/policy/match-pattern.js';

describe('compileWordPattern', () => {
  it.each([
    ['npm test', 'npm test', true],
    ['npm test', 'npm testx', false],
    ['npm test', 'xnpm test', false],
    ['git push*', 'git push', true],
    ['git push*', 'git pushx', true],
    ['git push *', 'git push', true],
    ['git push *', 'git pushx', false],
    ['git push *', 'git push -f', true],
    ['git * origin', 'git push --force origin', true],
    ['git * origin', 'git push origin main', false],
    ['*', '', true],
    ['a.b', 'aXb', false],
    ['rm (x)', 'rm (x)', true],
    ['mcp__gh__*', 'mcp__gh__create_issue', true],
    ['mcp__gh__*', 'mcp__ghx__create_issue', false],
    ['echo  hi', 'echo hi', true],
    ['echo hi', ' echo\thi\n', true],
  ])('%s ~ %j -> %s', (pattern, text, expected) => {
    expect(compileWordPattern(pattern)(text)).toBe(expected);
  });

  it('stays fast on patterns with many stars (no backtracking blow-up)', () => {
    const matcher = compileWordPattern('*a*a*a*a*a*a*a*a*b');
    expect(matcher('a'.repeat(5000))).toBe(false);
  });
});

describe('compilePathPattern', () => {
  it.each([
    ['src/**', 'src/a/b.ts', true],
    ['src/**', 'src', true],
    ['src/**', 'srcx/a', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'a/b/c.ts', true],
    ['*.ts', 'a/b.ts', false],
    ['**', '.git/config', true],
    ['.env*', '.env.local', true],
    ['src/*.{ts,js}', 'src/a.js', true],
  ])('%s ~ %j -> %s', (pattern, path, expected) => {
    expect(compilePathPattern(pattern)(path)).toBe(expected);
  });
});
