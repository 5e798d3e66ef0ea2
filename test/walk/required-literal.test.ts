import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRequiredLiteral } from '../../src/walk/required-literal.js';

// A grep skips a file whose bytes lack the literal: a literal that some match does not contain loses that match.
describe('findRequiredLiteral', () => {
  it.each([
    { pattern: 'needle_[0-9]{4}', want: 'needle_' },
    { pattern: 'TODO', want: 'TODO' },
    { pattern: 'import .* from', want: 'import ' },
    { pattern: '\\bconst\\b', want: 'const' },
    { pattern: 'foo\\(bar\\)', want: 'foo(bar)' },
    { pattern: 'a\\.b', want: 'a.b' },
    { pattern: 'function\\s+name', want: 'function' },
    { pattern: '^export (?:const|let) x', want: 'export ' },
    { pattern: '(?:TODO|FIXME): later', want: ': later' },
    { pattern: 'abcd?', want: 'abc' },
    { pattern: 'abc*d', want: 'ab' },
    { pattern: 'ab+c', want: 'a' },
    { pattern: 'x(?=yz)w', want: 'x' },
    { pattern: '(?<=pre)fix', want: 'fix' },
    { pattern: 'a[|]b', want: 'a' },
    { pattern: 'a\\|b', want: 'a|b' },
    { pattern: 'wait\\/go', want: 'wait/go' },
    { pattern: 'été', want: 't' },
  ])('$pattern requires $want', ({ pattern, want }) => {
    expect(findRequiredLiteral(pattern)).toBe(want);
  });

  it.each([
    { rule: 'top-level alternation', pattern: 'TODO|FIXME' },
    { rule: 'alternation after a group', pattern: '(a)b|c' },
    { rule: 'only a group', pattern: '(?:abc)' },
    { rule: 'a quantified single character', pattern: 'a?' },
    { rule: 'an escape of unknown length first (hex)', pattern: '\\x41BC' },
    { rule: 'a Unicode escape first', pattern: '\\u{41}BC' },
    { rule: 'a property escape first', pattern: '\\p{L}abc' },
    { rule: 'a backreference first', pattern: '(a)\\1bc' },
    { rule: 'a legacy identity escape of a letter', pattern: '\\qrs' },
    { rule: 'a brace first (legacy literal or quantifier)', pattern: 'x{2}abc' },
    { rule: 'non-ASCII text only', pattern: 'éà' },
    { rule: 'only classes and dots', pattern: '[a-z].[0-9]' },
  ])('requires nothing for $rule', ({ pattern }) => {
    expect(findRequiredLiteral(pattern)).toBeUndefined();
  });

  it('never names text a match lacks, for generated patterns and texts (Unicode and legacy mode)', () => {
    fc.assert(
      fc.property(pattern(), fc.array(text(), { minLength: 20, maxLength: 40 }), (source, texts) => {
        const regex = compile(source);
        fc.pre(regex !== undefined);
        const required = findRequiredLiteral(source);
        if (required === undefined) return;
        expect(required).toMatch(/^[ -~]+$/);
        for (const candidate of [...texts, ...texts.map((t) => `${t}${t}`)]) {
          if ((regex as RegExp).test(candidate)) expect(candidate).toContain(required);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('finds an ASCII literal in the bytes exactly when their UTF-8 decoding has it, around invalid sequences too', () => {
    const byte = fc.constantFrom(0x61, 0x62, 0x5f, 0x0a, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0xff, 0xed, 0xa0);
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), fc.string({ unit: fc.constantFrom('a', 'b', '_', '\n'), minLength: 1, maxLength: 3 }), (bytes, literal) => {
        const buffer = Buffer.from(bytes);
        expect(buffer.includes(Buffer.from(literal, 'latin1'))).toBe(buffer.toString('utf8').includes(literal));
      }),
      { numRuns: 5000 },
    );
  });
});

const ALPHABET = ['a', 'b', '_', ' ', '.', '(', ')', '|', '/', '1', 'x', '\n'];

function text(): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 10 });
}

function compile(source: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(source, flags);
    } catch {
      // try the next mode, as compileGrepPattern does
    }
  }
  return undefined;
}

// Patterns over the text alphabet: literals, escapes of every kind the scanner knows or stops at, classes, groups,
// lookarounds, alternation, anchors, quantifiers (greedy and lazy, braces) and backreferences.
function pattern(): fc.Arbitrary<string> {
  const atom = fc.constantFrom(
    'a', 'b', '_', ' ', '1', 'x', '/', '.', '^', '$',
    '\\.', '\\(', '\\)', '\\|', '\\/', '\\b', '\\B', '\\d', '\\w', '\\s', '\\S', '\\n', '\\x61', '\\u0062', '\\u{5f}', '\\p{L}', '\\1', '\\q',
    '[ab]', '[^a]', '[]', '[^]', '[\\]a]', '[|]', '[.(]',
    '{', '}', ']',
  );
  const quantifier = fc.constantFrom('', '', '', '?', '*', '+', '??', '*?', '{0,2}', '{2}', '{1,}');
  const { sequence } = fc.letrec<{ sequence: string; piece: string }>((tie) => ({
    sequence: fc.array(tie('piece'), { maxLength: 6 }).map((pieces) => pieces.join('')),
    piece: fc.oneof(
      { weight: 6, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('(', '(?:', '(?=', '(?!', '(?<=', '(?<!'), tie('sequence'), quantifier).map(([open, body, q]) => `${open}${body})${q}`) },
      { weight: 1, arbitrary: fc.tuple(tie('sequence'), tie('sequence')).map(([left, right]) => `${left}|${right}`) },
    ),
  }));
  return sequence;
}
