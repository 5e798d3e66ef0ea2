import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/text/edit.js';
import { catchToolwardenError } from './catch-error.js';

describe('applyEdit', () => {
  it.each([
    { name: 'one match', content: 'a = 1\nb = 2\n', old: 'a = 1', neu: 'a = 10', all: false, expected: 'a = 10\nb = 2\n', count: 1 },
    { name: 'multi-line match', content: 'x\ny\nz\n', old: 'x\ny', neu: 'X', all: false, expected: 'X\nz\n', count: 1 },
    { name: 'deleting text', content: 'keep\ndrop\nkeep2\n', old: 'drop\n', neu: '', all: false, expected: 'keep\nkeep2\n', count: 1 },
    { name: 'replace_all with many matches', content: 'foo foo\nfoo\n', old: 'foo', neu: 'bar', all: true, expected: 'bar bar\nbar\n', count: 3 },
    { name: 'replace_all with one match', content: 'foo\n', old: 'foo', neu: 'bar', all: true, expected: 'bar\n', count: 1 },
    { name: 'dollar patterns are literal', content: 'cost\n', old: 'cost', neu: "$& $' $1", all: false, expected: "$& $' $1\n", count: 1 },
    { name: 'non-overlapping count', content: 'aaa', old: 'aa', neu: 'b', all: true, expected: 'ba', count: 1 },
    { name: 'LF strings on a CRLF file keep CRLF', content: 'one\r\ntwo\r\nthree\r\n', old: 'one\ntwo', neu: 'ONE\nTWO\nextra', all: false, expected: 'ONE\r\nTWO\r\nextra\r\nthree\r\n', count: 1 },
    { name: 'CRLF strings on a LF file keep LF', content: 'one\ntwo\n', old: 'one\r\ntwo', neu: 'uno\r\ndos', all: false, expected: 'uno\ndos\n', count: 1 },
    { name: 'single-line edit on a CRLF file', content: 'a\r\nb\r\n', old: 'b', neu: 'c', all: false, expected: 'a\r\nc\r\n', count: 1 },
    { name: 'exact CRLF strings on a CRLF file', content: 'a\r\nb\r\n', old: 'a\r\nb', neu: 'c', all: false, expected: 'c\r\n', count: 1 },
  ])('$name', ({ content, old, neu, all, expected, count }) => {
    expect(applyEdit(content, old, neu, all, 'f.txt')).toEqual({ content: expected, replacements: count });
  });

  it.each([
    { name: 'not found', content: 'alpha\n', old: 'beta', neu: 'b', code: 'EDIT_MISMATCH', says: ['f.txt', 'not found'] },
    { name: 'not found, differs in indentation', content: '\tif (x) {\n', old: '    if (x) {', neu: 'y', code: 'EDIT_MISMATCH', says: ['whitespace is ignored', 'indentation'] },
    { name: 'not found, copied line-number prefix', content: 'alpha\n', old: '     1\talpha', neu: 'y', code: 'EDIT_MISMATCH', says: ['line number'] },
    { name: 'several matches without replace_all', content: 'x\ny\nx\nx\n', old: 'x', neu: 'z', code: 'EDIT_MISMATCH', says: ['3 times', 'lines 1, 3, 4', 'replace_all'] },
    { name: 'empty old_string', content: 'x', old: '', neu: 'y', code: 'INVALID_ARGS', says: ['old_string is empty'] },
    { name: 'old equals new', content: 'x', old: 'x', neu: 'x', code: 'INVALID_ARGS', says: ['identical'] },
  ])('refuses $name', ({ content, old, neu, code, says }) => {
    const error = catchToolwardenError(() => applyEdit(content, old, neu, false, 'f.txt'));
    expect(error.code).toBe(code);
    for (const text of says) expect(error.message).toContain(text);
  });
});
