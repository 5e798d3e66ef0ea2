import { describe, expect, it } from 'vitest';
import { compareMatches, comparePaths, trimMatchLine } from '../../src/walk/bound-results.js';

describe('trimMatchLine', () => {
  const long = `${'x'.repeat(1000)}NEEDLE${'y'.repeat(1000)}`;

  it.each([
    { rule: 'keeps a short line whole', line: 'short', column: 0, want: 'short' },
    { rule: 'keeps a line of exactly the limit', line: 'a'.repeat(300), column: 0, want: 'a'.repeat(300) },
    { rule: 'cuts the end of a long line matching early', line: `NEEDLE${'y'.repeat(500)}`, column: 0, want: `NEEDLE${'y'.repeat(294)}…` },
    { rule: 'cuts both sides around a match in the middle', line: long, column: 1000, want: `…${'x'.repeat(100)}NEEDLE${'y'.repeat(194)}…` },
    { rule: 'cuts the start of a long line matching late', line: `${'x'.repeat(500)}END`, column: 500, want: `…${'x'.repeat(297)}END` },
  ])('$rule', ({ line, column, want }) => {
    expect(trimMatchLine(line, column)).toBe(want);
  });
});

describe('ordering', () => {
  it('sorts paths by code unit, not locale', () => {
    expect(['b', 'B', 'a/x', 'a-b', 'ä'].sort(comparePaths)).toEqual(['B', 'a-b', 'a/x', 'b', 'ä']);
  });

  it('sorts matches by path then line', () => {
    const matches = [{ path: 'b', line: 1 }, { path: 'a', line: 10 }, { path: 'a', line: 2 }];
    expect(matches.sort(compareMatches)).toEqual([{ path: 'a', line: 2 }, { path: 'a', line: 10 }, { path: 'b', line: 1 }]);
  });
});
