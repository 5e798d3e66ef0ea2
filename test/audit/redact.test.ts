import { describe, expect, it } from 'vitest';
import { redactArgs, redactEvent, summarizeResult } from '../../src/audit/index.js';

const long = (n: number, ch = 'x'): string => ch.repeat(n);

describe('redactArgs', () => {
  it.each([
    ['keeps short ordinary fields', { path: 'a.txt', limit: 10 }, { path: 'a.txt', limit: 10 }],
    ['redacts content whatever its length', { path: 'a', content: 'hello' }, { path: 'a', content: '<redacted: 5 chars>' }],
    ['redacts empty content', { content: '' }, { content: '<redacted: 0 chars>' }],
    ['redacts old_string and new_string', { old_string: 'ab', new_string: 'abc' }, { old_string: '<redacted: 2 chars>', new_string: '<redacted: 3 chars>' }],
    ['redacts patch, input and body', { patch: 'p', input: 'in', body: 'bod' }, { patch: '<redacted: 1 chars>', input: '<redacted: 2 chars>', body: '<redacted: 3 chars>' }],
    ['redacts a non-string content field by its JSON length', { input: { a: 1 } }, { input: '<redacted: 7 chars>' }],
    ['keeps a null content field', { content: null }, { content: null }],
    ['keeps a 200-char string', { command: long(200) }, { command: long(200) }],
    ['redacts a 201-char string', { command: long(201) }, { command: '<redacted: 201 chars>' }],
    ['redacts long strings in nested arrays', { args: ['-n', long(300)] }, { args: ['-n', '<redacted: 300 chars>'] }],
    ['redacts content fields at any depth', { edits: [{ old_string: 'a', path: 'x' }] }, { edits: [{ old_string: '<redacted: 1 chars>', path: 'x' }] }],
    ['redacts a long top-level string', long(250), '<redacted: 250 chars>'],
    ['turns bigints into strings', { n: 10n }, { n: '10' }],
    ['keeps primitives', 42, 42],
  ])('%s', (_name, args, expected) => {
    expect(redactArgs(args, false)).toEqual(expected);
  });

  it('keeps everything with full logging', () => {
    const args = { content: long(500), command: long(300) };
    expect(redactArgs(args, true)).toEqual(args);
  });

  it('replaces cycles instead of throwing', () => {
    const args: Record<string, unknown> = { path: 'a' };
    args['self'] = args;
    expect(redactArgs(args, false)).toEqual({ path: 'a', self: '<circular>' });
  });

  it('keeps a shared but acyclic object twice', () => {
    const shared = { a: 1 };
    expect(redactArgs({ x: shared, y: shared }, false)).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });

  it('does not change its input', () => {
    const args = { content: 'secret' };
    redactArgs(args, false);
    expect(args).toEqual({ content: 'secret' });
  });
});

describe('summarizeResult', () => {
  it.each([
    ['keeps a short single line', 'ok', 'ok'],
    ['keeps exactly 200 chars', long(200), long(200)],
    ['cuts 201 chars to 80', long(201), `${long(80)} <redacted: 121 chars>`],
    ['cuts at the first newline when it comes before 80', '3 matches\na.ts:1:x', '3 matches <redacted: 9 chars>'],
    ['cuts at 80 when the newline comes later', `${long(100)}\nrest`, `${long(80)} <redacted: 25 chars>`],
    ['a short text with a newline is summarized', 'a\nb', 'a <redacted: 2 chars>'],
    ['a leading newline keeps nothing', '\nabc', ' <redacted: 4 chars>'],
    ['does not split a surrogate pair at the cut', `${long(79)}😀${long(150)}`, `${long(79)} <redacted: 152 chars>`],
  ])('%s', (_name, text, expected) => {
    expect(summarizeResult(text, false)).toBe(expected);
  });

  it('keeps everything with full logging', () => {
    expect(summarizeResult(`a\n${long(500)}`, true)).toBe(`a\n${long(500)}`);
  });
});

describe('redactEvent', () => {
  it('redacts args and summarizes the result, keeping the other fields', () => {
    const event = { time: 't', sessionId: 's', tool: 'write_file', args: { path: 'a', content: 'xyz' }, decision: 'allow' as const, durationMs: 3, result: 'line1\nline2' };
    expect(redactEvent(event, false)).toEqual({ ...event, args: { path: 'a', content: '<redacted: 3 chars>' }, result: 'line1 <redacted: 6 chars>' });
  });
});
