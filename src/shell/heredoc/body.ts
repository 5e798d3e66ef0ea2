import { HeredocReadError } from './lexer.js';

/** How bash reads one body: from which delimiter, and in which state of its parser. */
export interface BodyRules {
  delimiter: string;
  /** An unquoted delimiter: a backslash-newline joins two lines before the line is compared. */
  expands: boolean;
  /** `<<-`: leading tabs are stripped (after the line is compared once as it is). */
  stripTabs: boolean;
  /** Read inside `$(...)`, `<(...)` or `>(...)`. */
  inComsub: boolean;
}

/** One body as bash reads it, and where the input goes on. */
export interface BodyRead {
  /** The body as bash stores it: lines joined and tabs stripped as the rules say, each ending in a newline. */
  body: string;
  /** Whether a delimiter line ended it (else the input did). */
  closed: boolean;
  /** Where lexing resumes: after the delimiter line, or after the delimiter when the rest of its line is code. */
  resume: number;
  /** The rest of the delimiter line is code (bash's rule for command substitutions). */
  restIsCode: boolean;
}

interface Line {
  /** The line as bash compares it: backslash-newlines removed when they join, NUL bytes dropped. */
  text: string;
  /** For each character of `text`, its offset in the source. */
  offsets: number[];
  /** Offset of the newline that ends the line (or the end of the source). */
  end: number;
}

/**
 * Reads a here-document body starting at `start` (the beginning of a line) as bash 5.2 does (make_cmd.c,
 * make_here_document): line by line, ending at the first line that is the delimiter exactly, or at the end of the
 * input. Inside a command substitution bash also ends it at a line that starts with the delimiter and holds a `)`
 * later, and reads the rest of that line as code (its "backwards compatibility" rule).
 */
export function readBody(src: string, start: number, rules: BodyRules): BodyRead {
  const { delimiter } = rules;
  const lines: string[] = [];
  let at = start;
  while (at < src.length) {
    const line = readLine(src, at, rules.expands);
    const next = Math.min(line.end + 1, src.length);
    let text = line.text;
    let skipped = 0;
    if (rules.stripTabs) {
      if (text === delimiter) return { body: lines.join(''), closed: true, resume: next, restIsCode: false };
      skipped = /^\t*/.exec(text)?.[0].length ?? 0;
      text = text.slice(skipped);
    }
    if (text === delimiter) return { body: lines.join(''), closed: true, resume: next, restIsCode: false };
    if (rules.inComsub && text.startsWith(delimiter) && text.includes(')', delimiter.length)) {
      return { body: lines.join(''), closed: true, resume: restOfLine(src, line, skipped + delimiter.length), restIsCode: true };
    }
    lines.push(`${text}\n`);
    at = next;
  }
  return { body: lines.join(''), closed: false, resume: src.length, restIsCode: false };
}

// bash pushes the rest of the delimiter line back as input; lexing resumes there when that rest reads the same in
// the source (no line joined inside it, no character bash's own quoting doubles).
function restOfLine(src: string, line: Line, from: number): number {
  const resume = line.offsets[from] ?? line.end;
  const rest = line.text.slice(from);
  if (src.slice(resume, line.end) !== rest || /[\x01\x7f]/.test(rest)) {
    throw new HeredocReadError('the rest of a line that ends a here-document in a command substitution is joined or escaped', 'unfollowed');
  }
  return resume;
}

function readLine(src: string, start: number, joins: boolean): Line {
  let text = '';
  const offsets: number[] = [];
  let at = start;
  while (at < src.length) {
    const ch = src[at] as string;
    if (ch === '\n') break;
    if (ch === '\0') {
      at++;
      continue;
    }
    if (joins && ch === '\\') {
      if (src[at + 1] === '\n') {
        at += 2;
        continue;
      }
      text += ch;
      offsets.push(at++);
      // The escaped character is taken as it is, so `\\` before a newline does not join.
      while (src[at] === '\0') at++;
      if (at >= src.length || src[at] === '\n') continue;
    }
    text += src[at];
    offsets.push(at++);
  }
  return { text, offsets, end: at };
}
