import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../runtime/mcp/stderr-tail.js';

describe('StderrTail', () => {
  it.each([
    ['nothing written', [], ''],
    ['whole lines', ['a\nb\n'], 'a\nb'],
    ['a line split across chunks', ['hel', 'lo\nwor', 'ld'], 'hello\nworld'],
    ['CRLF and blank lines dropped', ['a\r\n\r\n  \nb\r\n'], 'a\nb'],
    ['only the last 20 lines', [Array.from({ length: 25 }, (_, i) => `line ${i}\n`).join('')], Array.from({ length: 20 }, (_, i) => `line ${i + 5}`).join('\n')],
    ['long lines clipped to 500 characters', [`${'x'.repeat(600)}\n`], 'x'.repeat(500)],
  ])('keeps %s', (_name, chunks, expected) => {
    const tail = new StderrTail();
    for (const chunk of chunks) tail.push(chunk);
    expect(tail.text()).toBe(expected);
  });
});
