import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputRingBuffer } from '../../src/ring-buffer.js';

function filled(capacity: number, ...texts: string[]): OutputRingBuffer {
  const buffer = new OutputRingBuffer(capacity);
  for (const text of texts) buffer.append(text);
  return buffer;
}

const SMILE = '\u{1F600}'; // two UTF-16 units
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

describe('OutputRingBuffer', () => {
  it.each([
    ['keeps everything under capacity', filled(10, 'abc', 'def'), [undefined, undefined], { text: 'abcdef', startOffset: 0, nextOffset: 6, truncated: false }],
    ['drops from the head on overflow', filled(4, 'abc', 'def'), [undefined, undefined], { text: 'cdef', startOffset: 2, nextOffset: 6, truncated: false }],
    ['flags an offset that fell off the head', filled(4, 'abc', 'def'), [0, undefined], { text: 'cdef', startOffset: 2, nextOffset: 6, truncated: true }],
    ['pages with a limit', filled(10, 'abcdef'), [1, 3], { text: 'bcd', startOffset: 1, nextOffset: 4, truncated: false }],
    ['an offset past the tail reads nothing', filled(10, 'abc'), [9, 2], { text: '', startOffset: 3, nextOffset: 3, truncated: false }],
    ['a single append larger than capacity keeps its tail', filled(3, 'abcdefg'), [undefined, undefined], { text: 'efg', startOffset: 4, nextOffset: 7, truncated: false }],
    ['drops a whole pair from the head rather than half', filled(3, `${SMILE}ab`), [undefined, undefined], { text: 'ab', startOffset: 2, nextOffset: 4, truncated: false }],
    ['a page end never splits a pair (moves back)', filled(10, `ab${SMILE}`), [0, 3], { text: 'ab', startOffset: 0, nextOffset: 2, truncated: false }],
    ['a page of one unit takes the whole pair', filled(10, `${SMILE}x`), [0, 1], { text: SMILE, startOffset: 0, nextOffset: 2, truncated: false }],
    ['an offset inside a pair starts at the pair', filled(10, `a${SMILE}`), [2, undefined], { text: SMILE, startOffset: 1, nextOffset: 3, truncated: false }],
    ['reads across large chunks', filled(9_000, 'a'.repeat(5_000), 'b'.repeat(5_000), 'c'.repeat(5_000)), [9_000, 2_000], { text: 'b'.repeat(1_000) + 'c'.repeat(1_000), startOffset: 9_000, nextOffset: 11_000, truncated: false }],
    ['drops a pair split across large chunks whole', filled(8_192, `${'x'.repeat(8_191)}\uD83D`, `\uDE00${'y'.repeat(8_191)}`), [undefined, undefined], { text: 'y'.repeat(8_191), startOffset: 8_193, nextOffset: 16_384, truncated: false }],
    ['a pair split across appends is kept whole', filled(10, 'a\uD83D', '\uDE00b'), [0, 2], { text: 'a', startOffset: 0, nextOffset: 1, truncated: false }],
  ])('%s', (_name, buffer, [offset, limit], expected) => {
    expect(buffer.read(offset, limit)).toEqual(expected);
  });

  it.each([
    ['a negative offset', -1, undefined],
    ['a fractional offset', 1.5, undefined],
    ['a zero limit', 0, 0],
  ])('rejects %s', (_name, offset, limit) => {
    expect(() => filled(4, 'ab').read(offset, limit)).toThrow(RangeError);
  });

  it('never splits a surrogate pair and pages reassemble the kept text (property)', () => {
    const piece = fc.constantFrom('a', 'bc', SMILE, `x${SMILE}`, '\u{20000}\u{20001}', '中文');
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), (capacity, pieces, limit) => {
        const buffer = filled(capacity, ...pieces);
        const whole = pieces.join('');
        const all = buffer.read();
        expect(all.text).toBe(whole.slice(whole.length - all.text.length));
        expect(all.text.length).toBeLessThanOrEqual(capacity);
        expect(all.nextOffset).toBe(whole.length);
        let offset = buffer.startOffset;
        let joined = '';
        while (offset < buffer.endOffset) {
          const page = buffer.read(offset, limit);
          expect(isWellFormed(page.text)).toBe(true);
          expect(page.nextOffset).toBeGreaterThan(offset);
          joined += page.text;
          offset = page.nextOffset;
        }
        expect(joined).toBe(all.text);
        expect(isWellFormed(all.text)).toBe(true);
      }),
    );
  });
});
