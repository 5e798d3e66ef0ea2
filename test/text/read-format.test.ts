import { describe, expect, it } from 'vitest';
import { formatReadResult, isProbablyBinary } from '../../src/text/read-format.js';
import { catchToolwardenError } from './catch-error.js';

const numbered = (from: number, lines: string[]): string => lines.map((line, k) => `${String(from + k).padStart(6)}\t${line}\n`).join('');
const tenLines = Array.from({ length: 10 }, (_, k) => `line ${k + 1}`);
const tenText = `${tenLines.join('\n')}\n`;

describe('formatReadResult', () => {
  it.each([
    { name: 'whole file, cat -n style', text: 'a\nb\n', opts: {}, expected: numbered(1, ['a', 'b']), start: 1, end: 2, total: 2 },
    { name: 'no trailing newline counts the last line', text: 'a\nb', opts: {}, expected: numbered(1, ['a', 'b']), start: 1, end: 2, total: 2 },
    { name: 'CRLF lines shown without \\r', text: 'a\r\nb\r\n', opts: {}, expected: numbered(1, ['a', 'b']), start: 1, end: 2, total: 2 },
    { name: 'blank lines are lines', text: '\n\n', opts: {}, expected: numbered(1, ['', '']), start: 1, end: 2, total: 2 },
    { name: 'offset and limit inside the file', text: tenText, opts: { offset: 3, limit: 2 }, expected: `${numbered(3, ['line 3', 'line 4'])}[showing lines 3-4 of 10; call read_file with offset 5 to continue]`, start: 3, end: 4, total: 10 },
    { name: 'limit reaching past the end', text: tenText, opts: { offset: 9, limit: 5 }, expected: numbered(9, ['line 9', 'line 10']), start: 9, end: 10, total: 10 },
    { name: 'offset at the last line', text: tenText, opts: { offset: 10 }, expected: numbered(10, ['line 10']), start: 10, end: 10, total: 10 },
  ])('$name', ({ text, opts, expected, start, end, total }) => {
    const result = formatReadResult(text, { path: 'f.txt', maxChars: 10_000, ...opts });
    expect(result.text).toBe(expected);
    expect([result.startLine, result.endLine, result.totalLines]).toEqual([start, end, total]);
    expect(result.truncated).toBe(false);
  });

  it('says an empty file is empty', () => {
    const result = formatReadResult('', { path: 'empty.txt', maxChars: 100 });
    expect(result).toEqual({ text: '[empty.txt is empty (0 lines)]', totalLines: 0, startLine: 1, endLine: 0, truncated: false });
  });

  it('answers an offset past the end with a message, not an error', () => {
    const result = formatReadResult(tenText, { path: 'f.txt', offset: 50, maxChars: 100 });
    expect(result.text).toContain('offset 50 is past the end of f.txt, which has 10 lines');
    expect(result).toMatchObject({ totalLines: 10, startLine: 50, endLine: 49, truncated: false });
    expect(result.nextOffset).toBeUndefined();
  });

  it('truncates on a line boundary and says how to read on', () => {
    const perLine = numbered(1, ['line 1']).length;
    const result = formatReadResult(tenText, { path: 'f.txt', maxChars: perLine * 3 + 2 });
    expect(result.text).toBe(`${numbered(1, ['line 1', 'line 2', 'line 3'])}[truncated at ${perLine * 3 + 2} characters: showing lines 1-3 of 10; call read_file with offset 4 to continue]`);
    expect(result).toMatchObject({ endLine: 3, truncated: true, nextOffset: 4 });
  });

  it('reading on from nextOffset continues where the last read stopped', () => {
    const big = Array.from({ length: 9000 }, (_, k) => `row ${k}`).join('\n');
    const seen: number[] = [];
    let offset: number | undefined = 1;
    while (offset !== undefined) {
      const page = formatReadResult(big, { path: 'big.txt', offset, maxChars: 20_000 });
      for (let n = page.startLine; n <= page.endLine; n++) seen.push(n);
      expect(page.text.length).toBeLessThanOrEqual(20_000 + 200);
      offset = page.nextOffset;
    }
    expect(seen).toEqual(Array.from({ length: 9000 }, (_, k) => k + 1));
  });

  it.each([
    { name: 'first line too long, more lines follow', text: `${'x'.repeat(500)}\nshort\n`, next: 2 as number | undefined, note: 'call read_file with offset 2' },
    { name: 'only line too long', text: 'y'.repeat(500), next: undefined, note: 'line 1 has 500 characters' },
  ])('cuts a single over-long line with a marker: $name', ({ text, next, note }) => {
    const result = formatReadResult(text, { path: 'long.txt', maxChars: 100 });
    expect(result.text).toContain('[… line cut]');
    expect(result.text).toContain(note);
    expect(result.text.split('\n')[0]?.startsWith('     1\t')).toBe(true);
    expect(result).toMatchObject({ startLine: 1, endLine: 1, truncated: true });
    expect(result.nextOffset).toBe(next);
  });

  it('does not split a surrogate pair when cutting', () => {
    const result = formatReadResult('😀'.repeat(200), { path: 'emoji.txt', maxChars: 50 });
    const shown = result.text.split(' [… line cut]')[0] ?? '';
    expect(shown.endsWith('😀')).toBe(true);
  });

  it.each([
    { name: 'offset 0', opts: { offset: 0 } },
    { name: 'negative offset', opts: { offset: -3 } },
    { name: 'fractional limit', opts: { limit: 1.5 } },
    { name: 'zero limit', opts: { limit: 0 } },
  ])('rejects $name with INVALID_ARGS', ({ opts }) => {
    const error = catchToolwardenError(() => formatReadResult(tenText, { path: 'f.txt', maxChars: 100, ...opts }));
    expect(error.code).toBe('INVALID_ARGS');
    expect(error.message).toContain('f.txt');
  });
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('isProbablyBinary', () => {
  it.each([
    { name: 'empty', bytes: new Uint8Array(), binary: false },
    { name: 'ASCII text', bytes: utf8('hello\tworld\r\n'), binary: false },
    { name: 'UTF-8 text', bytes: utf8('héllo 世界 😀\n'), binary: false },
    { name: 'ANSI colour escapes', bytes: utf8('\u001b[31mred\u001b[0m\n'), binary: false },
    { name: 'GBK text (invalid UTF-8, no control bytes)', bytes: Uint8Array.from([0xc4, 0xe3, 0xba, 0xc3, 0x0a, 0xca, 0xc0, 0xbd, 0xe7]), binary: false },
    { name: 'Latin-1 text', bytes: Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), binary: false },
    { name: 'a NUL byte', bytes: utf8('text\u0000more'), binary: true },
    { name: 'PNG header', bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]), binary: true },
    { name: 'invalid UTF-8 full of control bytes', bytes: Uint8Array.from([0xff, 0x01, 0x02, 0x03, 0xfe, 0x04, 0x05, 0x06, 0x41, 0x42]), binary: true },
    { name: 'valid UTF-8 cut inside a character at 8 KiB', bytes: utf8(`${'a'.repeat(8191)}é and more`), binary: false },
    { name: 'NUL after the first 8 KiB is not looked at', bytes: utf8(`${'a'.repeat(9000)}\u0000`), binary: false },
  ])('$name -> $binary', ({ bytes, binary }) => {
    expect(isProbablyBinary(bytes)).toBe(binary);
  });
});
