/**
 * Thrown where bash rejects the source too (`rejected`), or where bash reads a form the reading does not follow
 * (`unfollowed`); either way the command asks.
 */
export class HeredocReadError extends Error {
  constructor(
    message: string,
    readonly kind: 'rejected' | 'unfollowed' = 'rejected',
  ) {
    super(message);
  }
}

/** A word as bash's lexer delimits it: where it starts and ends, and whether any part of it was quoted. */
export interface WordSpan {
  start: number;
  end: number;
  quoted: boolean;
}

// Past this many steps per character of input (plus a floor) a reading stops: `((` retried as a subshell and
// nested constructs must not make it quadratic.
const STEPS_PER_CHAR = 40;
const STEP_FLOOR = 100_000;

/**
 * The character-level half of a bash lexer, over the original text: quotes, `$'...'`, backquotes, `${...}`,
 * `$(( ))` and `$[ ]` scanned as bash's parser scans them (parse.y, parse_matched_pair), and words. Here-document
 * bodies already read are skipped by jumps: bash reads a body from the lines after the one it is lexing, so a
 * jump always starts just after a newline and lexing resumes past the body.
 */
export abstract class Lexer {
  /** From the start of a body already read (just after a newline) to where lexing resumes. */
  protected readonly jumps = new Map<number, number>();
  private steps = 0;
  private readonly budget: number;

  constructor(protected readonly src: string) {
    this.budget = src.length * STEPS_PER_CHAR + STEP_FLOOR;
  }

  /** Lexes code up to and past the `)` that closes a `$(`, `<(` or `>(` opened just before `p`. */
  protected abstract comsub(p: number): number;

  /** The position after `p`, past any body that starts there. */
  protected adv(p: number): number {
    if (++this.steps > this.budget) throw new HeredocReadError('the command is too complex to read its here-documents', 'unfollowed');
    return this.src[p] === '\n' ? this.land(p + 1) : p + 1;
  }

  /** `p`, or where lexing resumes when a body starts at `p`. */
  protected land(p: number): number {
    let at = p;
    for (let next = this.jumps.get(at); next !== undefined; next = this.jumps.get(at)) at = next;
    return at;
  }

  /** Skips backslash-newline pairs, which bash removes before it sees a token (outside single quotes). */
  protected cooked(p: number): number {
    let at = p;
    while (this.src[at] === '\\' && this.src[at + 1] === '\n') at = this.adv(at + 1);
    return at;
  }

  /** The character at `p` after line continuations, and the position just after it. */
  protected peek(p: number): { ch: string | undefined; at: number; next: number } {
    const at = this.cooked(p);
    return { ch: this.src[at], at, next: at < this.src.length ? this.adv(at) : at };
  }

  /**
   * Reads one word starting at `p`; it ends before a blank, a newline or an operator character. Where an
   * assignment may stand (`assign`), `name[...]` is one subscript and `name=(...)` one compound assignment.
   */
  protected word(p: number, assign = false): WordSpan {
    const start = p;
    let at = p;
    let quoted = false;
    for (;;) {
      at = this.cooked(at);
      const ch = this.src[at];
      if (ch === undefined || ' \t\n;&|()'.includes(ch)) break;
      const sofar = (): string => this.src.slice(start, at).replace(/\\\n/g, '');
      if (ch === '<' || ch === '>') {
        const next = this.peek(at + 1);
        if (next.ch !== '(') break;
        at = this.comsub(next.next);
      } else if (assign && ch === '[' && /^[A-Za-z_]\w*$/.test(sofar())) {
        at = this.matched(this.adv(at), '[', ']', 'subscript');
      } else if (assign && ch === '=' && this.peek(at + 1).ch === '(' && /^[A-Za-z_]\w*(\[.*\])?\+?$/s.test(sofar())) {
        at = this.compound(this.peek(at + 1).next);
      } else if (ch === '\\') {
        quoted = true;
        at = this.skipEscaped(at);
      } else if (ch === "'") {
        quoted = true;
        at = this.single(at + 1, false);
      } else if (ch === '"') {
        quoted = true;
        at = this.double(at + 1);
      } else if (ch === '`') {
        at = this.backquote(at + 1);
      } else if (ch === '$') {
        const next = this.peek(at + 1);
        if (next.ch === "'" || next.ch === '"') quoted = true;
        at = this.dollar(at);
      } else {
        at = this.adv(at);
      }
    }
    return { start, end: at, quoted };
  }

  /** After `name=(`: past the `)` of the compound assignment, its words read as bash reads them. */
  private compound(p: number): number {
    let at = p;
    for (;;) {
      at = this.cooked(at);
      const ch = this.src[at];
      if (ch === undefined) throw new HeredocReadError('a compound assignment is not closed');
      if (ch === ')') return this.adv(at);
      if (ch === ' ' || ch === '\t') at = this.adv(at);
      else if (ch === '\n') at = this.newlineInAssignment(at);
      else if (ch === '#') at = this.comment(at);
      else if (ch === '[') at = this.word(this.matched(this.adv(at), '[', ']', 'subscript')).end;
      else if (';&|()'.includes(ch) || ('<>'.includes(ch) && this.peek(at + 1).ch !== '(')) throw new HeredocReadError(`unexpected ${ch} in a compound assignment`);
      else at = this.word(at).end;
    }
  }

  /** A newline inside `name=(...)`; bash gathers pending bodies there and misreads them, so that asks. */
  protected abstract newlineInAssignment(p: number): number;

  /** At a `#` that starts a word: the position of the newline that ends the comment (no line continuation). */
  protected comment(p: number): number {
    const end = this.src.indexOf('\n', p);
    return end === -1 ? this.src.length : end;
  }

  /** At a `$`: the position after the construct it starts (or after the `$` alone; `$$` is one parameter). */
  protected dollar(p: number): number {
    const next = this.peek(p + 1);
    if (next.ch === '(') {
      // `$((` is arithmetic first (Posix interp 217): a matched pair, in which `<<` is a shift.
      return this.peek(next.next).ch === '(' ? this.matched(next.next, '(', ')') : this.comsub(next.next);
    }
    if (next.ch === '{') return this.matched(next.next, '{', '}', 'brace');
    if (next.ch === '[') return this.matched(next.next, '[', ']');
    if (next.ch === "'") return this.single(next.next, true);
    if (next.ch === '"') return this.double(next.next);
    if (next.ch === '$') return next.next;
    return this.adv(p);
  }

  /** After an opening `'`: past the closing one. `$'...'` lets a backslash escape the quote. */
  protected single(p: number, escapes: boolean): number {
    let at = p;
    for (;;) {
      const ch = this.src[at];
      if (ch === undefined) throw new HeredocReadError('a single quote is not closed');
      if (ch === "'") return this.adv(at);
      at = escapes && ch === '\\' ? this.skipEscaped(at) : this.adv(at);
    }
  }

  /** After an opening `"`: past the closing one, through `$(...)`, `${...}` and backquotes inside. */
  protected double(p: number): number {
    let at = p;
    for (;;) {
      const ch = this.src[at];
      if (ch === undefined) throw new HeredocReadError('a double quote is not closed');
      if (ch === '"') return this.adv(at);
      if (ch === '\\') at = this.skipEscaped(at);
      else if (ch === '`') at = this.backquote(this.adv(at));
      else if (ch === '$' && '({[$'.includes(this.peek(at + 1).ch ?? '.')) at = this.dollar(at);
      else at = this.adv(at);
    }
  }

  /** After an opening backquote: past the closing one (a backslash escapes the next character). */
  protected backquote(p: number): number {
    let at = p;
    for (;;) {
      const ch = this.src[at];
      if (ch === undefined) throw new HeredocReadError('a backquote is not closed');
      if (ch === '`') return this.adv(at);
      at = ch === '\\' ? this.skipEscaped(at) : this.adv(at);
    }
  }

  /**
   * After `open`: past its matching `close`, counting nested opens and skipping quotes and backslash escapes, as
   * bash's parse_matched_pair reads a group. In `${...}` (`brace`, where only `${` nests) and in an array
   * subscript, `$(`, `<(`, `>(`, `${` and `$[` are read as what they start (a command substitution is code, with
   * its own here-documents); in a plain group (`$((`, `((`, `$[`) they are characters.
   */
  protected matched(p: number, open: string, close: string, mode: 'group' | 'brace' | 'subscript' = 'group'): number {
    let at = p;
    let depth = 1;
    let prev = '';
    for (;;) {
      const ch = this.src[at];
      if (ch === undefined) throw new HeredocReadError(`a ${open} is not closed`);
      const dollar = prev === '$';
      prev = ch === '$' && dollar ? '' : ch;
      if (ch === '\\') {
        at = this.skipEscaped(at);
        prev = '';
      } else if (ch === close) {
        at = this.adv(at);
        if (--depth === 0) return at;
      } else if (ch === "'") {
        at = this.single(this.adv(at), dollar);
      } else if (ch === '"') {
        at = this.double(this.adv(at));
      } else if (ch === '`') {
        at = this.backquote(this.adv(at));
      } else if (mode !== 'group' && ch === '(' && (dollar || '<>'.includes(this.src[at - 1] ?? '.'))) {
        at = this.dollarOrComsub(at, dollar);
      } else if (mode !== 'group' && dollar && (ch === '{' || ch === '[')) {
        at = this.matched(this.adv(at), ch, ch === '{' ? '}' : ']', ch === '{' ? 'brace' : 'group');
      } else {
        if (ch === open && mode !== 'brace') depth++;
        at = this.adv(at);
      }
    }
  }

  // At the `(` of `$(`, `<(` or `>(` inside a brace or subscript: `$((` stays arithmetic.
  private dollarOrComsub(at: number, dollar: boolean): number {
    const next = this.adv(at);
    return dollar && this.peek(next).ch === '(' ? this.matched(next, '(', ')') : this.comsub(next);
  }

  /** At a backslash: the position after the character it escapes (a line continuation goes too). */
  protected skipEscaped(at: number): number {
    return at + 1 < this.src.length ? this.adv(at + 1) : at + 1;
  }
}
