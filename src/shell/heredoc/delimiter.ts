import { decodeAnsiC } from '../words.js';
import { HeredocReadError } from './lexer.js';

/** A here-document's delimiter as bash compares lines with it, and whether its body is data. */
export interface Delimiter {
  text: string;
  /** Any part of the word was quoted (`'E'OF`, `"EOF"`, `\EOF`, `$'EOF'`): the body is never expanded. */
  quoted: boolean;
}

/**
 * The delimiter of `<<word` as bash 5.2 forms it: quote removal only, no expansion (`$x` stays `$x`), `$'...'`
 * decoded when the word is read. Forms whose text bash rewrites first (a command substitution is printed again,
 * `$"..."` may be translated, byte escapes need the locale) are refused rather than guessed.
 */
export function delimiterOf(word: string): Delimiter {
  const plain = removeContinuations(word);
  if (/\$[({["]|`|[<>]\(/.test(plain)) throw new HeredocReadError(`the here-document delimiter ${JSON.stringify(word)} holds an expansion`, 'unfollowed');
  if (/[\0\x01\x7f]/.test(plain)) throw new HeredocReadError('the here-document delimiter holds a control character bash quotes itself', 'unfollowed');
  let text = '';
  let quoted = false;
  let inDouble = false;
  for (let i = 0; i < plain.length; i++) {
    const ch = plain[i] as string;
    if (ch === '\\' && i + 1 < plain.length) {
      const next = plain[++i] as string;
      // Inside double quotes a backslash stays unless it escapes $ ` " \ or a newline.
      if (inDouble && !'$`"\\\n'.includes(next)) text += '\\';
      text += next;
      quoted = true;
    } else if (ch === '"') {
      inDouble = !inDouble;
      quoted = true;
    } else if (ch === "'" && !inDouble) {
      const close = plain.indexOf("'", i + 1);
      if (close === -1) throw new HeredocReadError('a single quote in the here-document delimiter is not closed');
      text += plain.slice(i + 1, close);
      i = close;
      quoted = true;
    } else if (ch === '$' && plain[i + 1] === "'" && !inDouble) {
      const close = closingQuote(plain, i + 2);
      text += decodeDelimiterEscapes(plain.slice(i + 2, close));
      i = close;
      quoted = true;
    } else {
      text += ch;
    }
  }
  return { text, quoted };
}

/** The word without the backslash-newlines bash's lexer removes (everywhere but inside single quotes). */
export function removeContinuations(word: string): string {
  let out = '';
  let quote: "'" | '"' | "$'" | '' = '';
  for (let i = 0; i < word.length; i++) {
    const ch = word[i] as string;
    if (quote !== "'" && quote !== "$'" && ch === '\\' && word[i + 1] === '\n') {
      i++;
      continue;
    }
    if (quote === '' && ch === '$' && word[i + 1] === "'") {
      quote = "$'";
      out += word[i++];
    } else if (quote === '' && (ch === "'" || ch === '"')) {
      quote = ch;
    } else if ((quote === "$'" ? "'" : quote) === ch) {
      quote = '';
    } else if (quote !== "'" && ch === '\\') {
      out += word[i++] ?? '';
    }
    out += word[i] ?? '';
  }
  return out;
}

function closingQuote(word: string, from: number): number {
  for (let i = from; i < word.length; i++) {
    if (word[i] === '\\') i++;
    else if (word[i] === "'") return i;
  }
  return word.length;
}

// Byte escapes (\x, octal, \u, \c) decode by locale and may not be the characters the lines hold: refused.
function decodeDelimiterEscapes(body: string): string {
  const decoded = /\\(?:[xuUc0-7])/.test(body) ? null : decodeAnsiC(body);
  if (decoded === null) throw new HeredocReadError(`the here-document delimiter $'${body}' holds an escape the check does not follow`, 'unfollowed');
  return decoded;
}
