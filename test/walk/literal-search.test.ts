import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { literalSearch } from '../../workers/walk/literal-search.js';

describe('literalSearch', () => {
  it.each([
    { rule: 'at the start', literal: 'ab_', text: 'ab_cd', want: true },
    { rule: 'at the very end', literal: 'ab_', text: 'xxab_', want: true },
    { rule: 'cut off by the end', literal: 'ab_', text: 'xxab', want: false },
    { rule: 'its rare byte too close to the start for a match', literal: 'ab_', text: '_ab', want: false },
    { rule: 'after many misses of its rare byte (the fallback)', literal: 'x_', text: `${'_'.repeat(50)}x_`, want: true },
    { rule: 'absent after many misses', literal: 'x_', text: '_'.repeat(50), want: false },
    { rule: 'an empty buffer', literal: 'a', text: '', want: false },
  ])('finds the literal $rule: $want', ({ literal, text, want }) => {
    expect(literalSearch(literal)(Buffer.from(text, 'latin1'))).toBe(want);
  });

  it('agrees with Buffer.includes on generated buffers, views of a larger buffer included', () => {
    const unit = fc.constantFrom('a', 'b', '_', 'Q', ' ', '\n');
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 5 }), fc.string({ unit, maxLength: 80 }), fc.nat(4), (literal, text, trim) => {
        // A view ending before its parent's end: bytes past the view must not count.
        const parent = Buffer.from(`${text}${literal}`, 'latin1');
        const view = parent.subarray(0, Math.max(0, text.length - trim));
        const needle = Buffer.from(literal, 'latin1');
        expect(literalSearch(literal)(view)).toBe(view.includes(needle));
      }),
      { numRuns: 5000 },
    );
  });
});
