// Characters with a meaning in a JavaScript regular expression outside a class.
const SYNTAX = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
// Escapes of exactly one character after the backslash that match no fixed character (`\b`, `\d`...) or a control
// character (`\n`): they end a run, and scanning goes on after them.
const SHORT_ESCAPES = new Set(['b', 'B', 'd', 'D', 'w', 'W', 's', 'S', 't', 'n', 'r', 'v', 'f']);
// Escapes that stand for the character itself in both Unicode and legacy mode.
const IDENTITY_ESCAPES = new Set([...SYNTAX, '/']);
// Characters after an atom that may repeat it zero times (`+` too, to keep runs simple).
const QUANTIFIERS = new Set(['?', '*', '+', '{']);

/**
 * The longest run of printable ASCII characters that every match of `pattern` (a case-sensitive JavaScript regular
 * expression) contains, or undefined when none can be told safely. A grep skips a file whose bytes lack it without
 * decoding or matching it: an ASCII character of decoded UTF-8 text always comes from that very byte.
 *
 * Conservative by construction: only characters at the top level (outside groups and classes) of a pattern with no
 * top-level `|` count; a character followed by a quantifier does not; scanning stops at `{` and at any escape whose
 * length it does not know (`\x41`, `\u{…}`, `\p{…}`, `\k<…>`, backreferences, legacy identity escapes of letters).
 * @example findRequiredLiteral('needle_[0-9]{4}') // 'needle_'
 * @example findRequiredLiteral('TODO|FIXME') // undefined
 */
export function findRequiredLiteral(pattern: string): string | undefined {
  if (hasTopLevelAlternation(pattern)) return undefined;
  let best = '';
  let run = '';
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let depth = 0;
  for (let i = 0; i < pattern.length; ) {
    const char = pattern[i] as string;
    if (char === '[') {
      endRun();
      i = skipClass(pattern, i);
      continue;
    }
    if (char === '(' || char === ')') {
      endRun();
      depth += char === '(' ? 1 : -1;
      i += 1;
      continue;
    }
    if (char === '{') break;
    let literal: string | undefined;
    let width = 1;
    if (char === '\\') {
      const escaped = pattern[i + 1];
      if (escaped === undefined) break;
      if (IDENTITY_ESCAPES.has(escaped)) literal = escaped;
      else if (!SHORT_ESCAPES.has(escaped)) break;
      width = 2;
    } else if (!SYNTAX.has(char) && isPrintableAscii(char)) {
      literal = char;
    }
    const next = pattern[i + width];
    if (depth === 0 && literal !== undefined && (next === undefined || !QUANTIFIERS.has(next))) run += literal;
    else endRun();
    i += width;
  }
  endRun();
  return best === '' ? undefined : best;
}

function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') i += 1;
    else if (char === '[') i = skipClass(pattern, i) - 1;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === '|' && depth <= 0) return true;
  }
  return false;
}

// The index after the class opening at `start`: its first unescaped `]` closes it (in JavaScript, `[]` is an empty class).
function skipClass(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i += 1) {
    if (pattern[i] === '\\') i += 1;
    else if (pattern[i] === ']') return i + 1;
  }
  return pattern.length;
}

function isPrintableAscii(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e;
}
