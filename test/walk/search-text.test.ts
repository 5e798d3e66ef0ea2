import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGrepPattern, MAX_GREP_PATTERN_CHARS } from '../../src/walk/grep-pattern.js';
import { searchText } from '../../src/walk/search-text.js';

function findLines(content: string, pattern: string, ignoreCase = false): Array<[number, string, number]> {
  const found: Array<[number, string, number]> = [];
  searchText(content, compileGrepPattern(pattern, ignoreCase), (line, text, column) => {
    found.push([line, text, column]);
    return true;
  });
  return found;
}

/** The reference semantics: split on \n, drop a trailing \r, no line after a final break, none in an empty file. */
function findLinesNaively(content: string, pattern: string): number[] {
  if (content === '') return [];
  const regex = new RegExp(pattern, 'u');
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines.flatMap((line, index) => (regex.test(line.endsWith('\r') ? line.slice(0, -1) : line) ? [index + 1] : []));
}

describe('searchText', () => {
  it.each([
    { rule: 'reports line numbers and match columns', content: 'a\nfoo bar\nb\nbar', pattern: 'bar', want: [[2, 'foo bar', 4], [4, 'bar', 0]] },
    { rule: 'strips the \\r of CRLF lines so $ matches', content: 'one end\r\ntwo\r\n', pattern: 'end$', want: [[1, 'one end', 4]] },
    { rule: 'does not count an empty line after the final break', content: 'x\n', pattern: '^', want: [[1, 'x', 0]] },
    { rule: 'counts an empty line in the middle', content: 'x\n\ny', pattern: '^$', want: [[2, '', 0]] },
    { rule: 'finds nothing in an empty file', content: '', pattern: '^', want: [] },
    { rule: 'never matches across a line break', content: 'foo\nbar', pattern: 'foo\\sbar', want: [] },
    { rule: 'reports each matching line once', content: 'aa aa aa\nb', pattern: 'aa', want: [[1, 'aa aa aa', 0]] },
    { rule: 'handles lookbehind at line start like a single line', content: 'x\nfoo', pattern: '(?<![^ ])foo', want: [[2, 'foo', 0]] },
    { rule: 'handles lookahead at line end like a single line', content: 'foo\nx', pattern: 'foo(?![^x])', want: [[1, 'foo', 0]] },
  ])('$rule', ({ content, pattern, want }) => {
    expect(findLines(content, pattern)).toEqual(want);
  });

  it('matches case-insensitively when asked', () => {
    expect(findLines('Hello\nHELLO\nbye', 'hello', true).map(([line]) => line)).toEqual([1, 2]);
    expect(findLines('Hello\nHELLO\nbye', 'hello', false)).toEqual([]);
  });

  it('stops when the callback says so', () => {
    const seen: number[] = [];
    const finished = searchText('a\na\na', compileGrepPattern('a'), (line) => {
      seen.push(line);
      return seen.length < 2;
    });
    expect([finished, seen]).toEqual([false, [1, 2]]);
  });

  it('the whole-file scan finds exactly the lines a line-by-line test finds', () => {
    const patterns = ['a', '^b', 'a$', 'a\\s', '\\bab', 'b*', '[^a]b', '^$', 'a.b', '(?<=a)b', 'a(?!b)'];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\r', 'é') }), fc.constantFrom(...patterns), (content, pattern) => {
        expect(findLines(content, pattern).map(([line]) => line)).toEqual(findLinesNaively(content, pattern));
      }),
      { numRuns: 500 },
    );
  });
});

describe('compileGrepPattern', () => {
  it.each([
    { rule: 'an unterminated group', pattern: '(' },
    { rule: 'a dangling quantifier', pattern: '*a' },
    { rule: 'an empty pattern', pattern: '' },
  ])('refuses $rule with INVALID_ARGS naming the pattern', ({ pattern }) => {
    expect(() => compileGrepPattern(pattern)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS', message: expect.stringContaining(`'${pattern}'`.slice(0, pattern ? undefined : 0)) }));
  });

  it.each([
    { rule: 'a 100,000-character literal', pattern: 'a'.repeat(100_000) },
    { rule: 'one character over the limit', pattern: 'a'.repeat(MAX_GREP_PATTERN_CHARS + 1) },
    { rule: 'a long alternation', pattern: 'ab|'.repeat(40_000) },
  ])('refuses $rule with INVALID_ARGS naming the limit, and quotes the pattern short', ({ pattern }) => {
    expect(() => compileGrepPattern(pattern)).toThrow(expect.objectContaining({ code: 'INVALID_ARGS', message: expect.stringContaining(`over the limit of ${MAX_GREP_PATTERN_CHARS}`) }));
    expect(() => compileGrepPattern(pattern)).toThrow(expect.objectContaining({ message: expect.not.stringContaining(pattern.slice(0, 200)) }));
  });

  it.each([
    { rule: 'a literal at the limit', pattern: 'a'.repeat(MAX_GREP_PATTERN_CHARS), text: 'a'.repeat(MAX_GREP_PATTERN_CHARS) },
    { rule: 'classes up to the limit', pattern: '[ab]'.repeat(MAX_GREP_PATTERN_CHARS / 4), text: 'b'.repeat(MAX_GREP_PATTERN_CHARS / 4) },
  ])('accepts $rule (the near miss) and it matches', ({ pattern, text }) => {
    expect(compileGrepPattern(pattern).line.test(text)).toBe(true);
    expect(compileGrepPattern(pattern).line.test(`\u0100${text}`)).toBe(true);
  });

  it('accepts a pattern valid only outside Unicode mode', () => {
    expect(compileGrepPattern('a{').line.test('a{')).toBe(true);
  });

  it('uses no whole-file scan for lookarounds', () => {
    expect([compileGrepPattern('(?<=a)b').scan, compileGrepPattern('a(?=b)').scan]).toEqual([undefined, undefined]);
    expect(compileGrepPattern('(?<name>a)').scan).toBeInstanceOf(RegExp);
  });
});
