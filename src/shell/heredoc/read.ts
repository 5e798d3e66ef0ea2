import { readBody } from './body.js';
import { delimiterOf, removeContinuations } from './delimiter.js';
import { HeredocReadError, Lexer } from './lexer.js';

/** One here-document as bash reads it, and where its placeholder stands in the rewritten source. */
export interface Heredoc {
  /** Offset of the placeholder's `<` in the rewritten source. */
  at: number;
  /** Length of the placeholder: `< ` and the delimiter word as written (line continuations removed). */
  length: number;
  delimiter: string;
  /** Some part of the delimiter was quoted: the body is data, never expanded. */
  quoted: boolean;
  /** The body as bash stores it (see readBody). */
  body: string;
  /** A delimiter line ended it; else the end of the input did (bash warns and runs it). */
  closed: boolean;
  /** Read inside `$(...)`, `<(...)` or `>(...)`. */
  inComsub: boolean;
}

/** The source with every here-document replaced by a `<` redirection placeholder and its body removed. */
export interface HeredocReading {
  source: string;
  heredocs: Heredoc[];
}

type Frame = { kind: 'paren' | 'cond' } | { kind: 'case'; state: 'subject' | 'in' | 'pattern' | 'body'; patternStart: boolean };

// What the next word is: a command (where reserved words and `((` count), a `for` header (where `((` does), the
// name after `function` (a command follows it), or an argument.
type Position = 'command' | 'for' | 'name' | 'argument';

interface Pending {
  opStart: number;
  wordStart: number;
  wordEnd: number;
  stripTabs: boolean;
  inComsub: boolean;
}

// Reserved words after which a command (and so another reserved word or `((`) may follow.
const LEADS_COMMAND = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'time', 'coproc']);
// bash's HEREDOC_MAX: one more pending here-document is a syntax error.
const MAX_PENDING = 16;
const REDIRECTIONS = new Set(['<', '>', '>>', '<&', '>&', '<>', '>|', '&>', '&>>', '<<<']);
// A `<<` can only form through a line continuation when the text holds `<` followed by `<` or by one.
const MAY_HOLD_HEREDOC = /<(?:\\\n)*</;

/**
 * Reads the here-documents of `source` the way bash 5.2 reads them (parse.y read_token and parse_comsub,
 * make_cmd.c make_here_document): only `<<` and `<<-` operators bash lexes as such (not inside quotes, comments,
 * `$(( ))`, `(( ))` or backquotes), their delimiters after quote removal, and their bodies from the lines after
 * the newline that ends the operator's command, one after the other. Each operator and its word becomes a `<`
 * redirection (which tree-sitter-bash reads in every place a here-document may stand) and each body leaves the
 * source, so tree-sitter parses the rest as bash does; the caller checks that it reads the placeholders where they
 * were put. Throws {@link HeredocReadError} where bash would reject the source or reads it in a way not followed.
 */
export function readHeredocs(source: string): HeredocReading {
  if (!MAY_HOLD_HEREDOC.test(source)) return { source, heredocs: [] };
  return new HeredocReader(source).read();
}

/** An expansion bash performs in an unquoted here-document body. */
export type BodyExpansion =
  /** `$(...)`, `$((...))`, `${...}` or `$[...]`, as written. */
  | { kind: 'dollar'; text: string }
  /** A backquoted command, its backslashes before `$`, a backquote or a backslash removed as bash does. */
  | { kind: 'backquote'; code: string };

/**
 * The expansions of an unquoted body, found as bash expands it (subst.c, here-document quoting): a backslash
 * escapes only `$`, a backquote and itself, and quotes are plain characters. Throws {@link HeredocReadError} for an
 * expansion that is not closed.
 */
export function bodyExpansions(body: string): BodyExpansion[] {
  return new HeredocReader(body).expansions();
}

class HeredocReader extends Lexer {
  private pending: Pending[] = [];
  private readonly done: (Pending & { body: string; closed: boolean; quoted: boolean; delimiter: string })[] = [];

  read(): HeredocReading {
    this.code(0, false);
    if (this.done.length > 0 && /\p{Surrogate}/u.test(this.src)) throw new HeredocReadError('the command holds a lone surrogate, which reaches bash as another character', 'unfollowed');
    return this.rewrite();
  }

  expansions(): BodyExpansion[] {
    const found: BodyExpansion[] = [];
    let at = 0;
    while (at < this.src.length) {
      const ch = this.src[at];
      const next = this.src[at + 1] ?? '';
      if (ch === '\\' || (ch === '$' && next === '$')) {
        at += 2;
      } else if (ch === '$' && '({['.includes(next)) {
        const end = this.dollar(at);
        found.push({ kind: 'dollar', text: this.src.slice(at, end) });
        at = end;
      } else if (ch === '`') {
        const end = this.backquote(at + 1);
        found.push({ kind: 'backquote', code: this.src.slice(at + 1, end - 1).replace(/\\([`$\\])/g, '$1') });
        at = end;
      } else {
        at++;
      }
    }
    return found;
  }

  protected comsub(p: number): number {
    return this.code(p, true);
  }

  protected newlineInAssignment(p: number): number {
    if (this.pending.length > 0) throw new HeredocReadError('a compound assignment spans a line while a here-document is pending', 'unfollowed');
    return this.adv(p);
  }

  // Lexes commands from `p`: to the end of the input, or (in a command substitution) past its closing `)`.
  private code(p: number, comsub: boolean): number {
    const outer = this.pending;
    this.pending = [];
    const frames: Frame[] = [];
    let position: Position = 'command';
    let target = false;
    let at = p;
    for (;;) {
      at = this.cooked(at);
      const ch = this.src[at];
      const top = frames[frames.length - 1];
      if (ch === undefined) {
        if (comsub || frames.length > 0 || target) throw new HeredocReadError(comsub ? 'a $( is not closed' : 'the command is not complete');
        this.gather(at, false);
        this.pending = outer;
        return at;
      }
      if (ch === ' ' || ch === '\t') {
        at = this.adv(at);
      } else if (ch === '#') {
        at = this.comment(at);
      } else if (ch === '\n') {
        if (target) throw new HeredocReadError('a redirection has no target');
        this.gather(at + 1, comsub);
        at = this.adv(at);
        if (top?.kind !== 'case' || top.state === 'body') position = 'command';
      } else if (ch === ')' && (top === undefined || top.kind !== 'paren') && !(top?.kind === 'case' && top.state === 'pattern')) {
        if (!comsub || top !== undefined || target) throw new HeredocReadError('an unexpected )');
        const end = this.adv(at);
        // Bodies still pending when the substitution closes come from the lines after this one.
        const newline = this.src.indexOf('\n', at);
        this.gather(newline === -1 ? this.src.length : newline + 1, true, true);
        this.pending = outer;
        return end;
      } else if (';&|()'.includes(ch) || ((ch === '<' || ch === '>') && this.peek(at + 1).ch !== '(')) {
        const { op, next } = this.operator(at);
        if (target) throw new HeredocReadError(`a redirection has no target before ${op}`);
        if (op === '<<' || op === '<<-') {
          if (frames.some((f) => f.kind !== 'paren' && (f.kind !== 'case' || f.state !== 'body'))) throw new HeredocReadError(`${op} where bash reads no here-document`);
          at = this.operand(at, next, op === '<<-', comsub);
          continue;
        }
        at = next;
        if (REDIRECTIONS.has(op)) {
          target = true;
        } else if (op === '(' && top?.kind === 'case' && top.state === 'pattern' && top.patternStart) {
          top.patternStart = false;
        } else if (op === '(' && (position === 'command' || position === 'for') && this.peek(next).ch === '(') {
          at = this.doubleParen(next, frames);
          position = frames[frames.length - 1] !== top ? 'command' : 'argument';
        } else if (op === ')' && top?.kind === 'case') {
          top.state = 'body';
          position = 'command';
        } else if (op === ';;' || op === ';;&' || op === ';&') {
          this.caseItemEnd(top);
        } else if (op === '|' && top?.kind === 'case' && top.state === 'pattern') {
          top.patternStart = false;
        } else {
          if (op === '(') frames.push({ kind: 'paren' });
          if (op === ')') frames.pop();
          // After `)` too: a function's body follows `name()`, and anything else there is an error in bash.
          position = 'command';
        }
      } else {
        const word = this.word(at, position === 'command' && !target && top?.kind !== 'case' && top?.kind !== 'cond');
        if (word.end === at) throw new HeredocReadError(`an unexpected ${ch}`);
        const text = this.src.slice(word.start, word.end);
        at = word.end;
        if (target) {
          target = false;
        } else if (top?.kind === 'case' && top.state !== 'body') {
          if (top.state === 'subject') top.state = 'in';
          else if (top.state === 'in' && text === 'in') Object.assign(top, { state: 'pattern', patternStart: true });
          else if (top.state === 'in') throw new HeredocReadError('a case without in');
          else if (text === 'esac' && top.patternStart) frames.pop();
          else top.patternStart = false;
        } else if (top?.kind === 'cond') {
          if (text === ']]') frames.pop();
        } else {
          position = position === 'command' ? this.commandWord(text, frames, top) : position === 'name' ? 'command' : 'argument';
        }
      }
    }
  }

  // A word where a command may start: reserved words steer what follows.
  private commandWord(text: string, frames: Frame[], top: Frame | undefined): Position {
    if (text === 'case') frames.push({ kind: 'case', state: 'subject', patternStart: false });
    else if (text === 'esac' && top?.kind === 'case') frames.pop();
    else if (text === '[[') frames.push({ kind: 'cond' });
    else if (text === 'for' || text === 'select') return 'for';
    else if (text === 'function') return 'name';
    else if (LEADS_COMMAND.has(text) || /^[A-Za-z_]\w*(\[.*\])?\+?=/s.test(text)) return 'command';
    return 'argument';
  }

  private caseItemEnd(top: Frame | undefined): void {
    if (top?.kind !== 'case' || top.state !== 'body') throw new HeredocReadError(';; outside a case item');
    Object.assign(top, { state: 'pattern', patternStart: true });
  }

  // `((` where a command may start: arithmetic when the matched group is followed by `)`, else bash reads the
  // first `(` as a subshell and lexes again from the second.
  private doubleParen(second: number, frames: Frame[]): number {
    const inner = this.peek(second);
    const end = this.matched(inner.next, '(', ')');
    if (this.src[end] === ')') return this.adv(end);
    frames.push({ kind: 'paren' });
    return inner.at;
  }

  // After `<<` or `<<-`: the delimiter word, kept pending until the newline that ends the command.
  private operand(opStart: number, p: number, stripTabs: boolean, inComsub: boolean): number {
    let at = this.cooked(p);
    while (this.src[at] === ' ' || this.src[at] === '\t') at = this.cooked(this.adv(at));
    const word = this.word(at);
    if (word.end === at) throw new HeredocReadError('a here-document operator has no delimiter');
    if (this.pending.length >= MAX_PENDING) throw new HeredocReadError(`bash allows at most ${MAX_PENDING} here-documents waiting for their bodies`);
    // A body can only be skipped inside the word after a newline in it.
    if (this.src.slice(word.start, word.end).includes('\n') && [...this.jumps.keys()].some((start) => start > word.start && start <= word.end)) {
      throw new HeredocReadError('a here-document delimiter spans a body', 'unfollowed');
    }
    this.pending.push({ opStart, wordStart: word.start, wordEnd: word.end, stripTabs, inComsub });
    return word.end;
  }

  private operator(at: number): { op: string; next: number } {
    const first = this.src[at] as string;
    const second = this.peek(at + 1);
    const third = second.ch === undefined ? second : this.peek(second.next);
    const pairs: Record<string, string[]> = { ';': [';', '&'], '&': ['&', '>'], '|': ['|', '&'], '<': ['<', '&', '>'], '>': ['>', '&', '|'], '(': [], ')': [] };
    if (!(pairs[first] ?? []).includes(second.ch ?? '')) return { op: first, next: this.adv(at) };
    const two = first + second.ch;
    if ((two === ';;' && third.ch === '&') || (two === '&>' && third.ch === '>') || (two === '<<' && (third.ch === '-' || third.ch === '<'))) {
      return { op: two + third.ch, next: third.next };
    }
    return { op: two, next: second.next };
  }

  // At the start of the line after a newline token (or after the line where a `$(` closed): each pending body in
  // turn, skipped by a jump. When bash's substitution rule ends a body mid-line, the rest of that line is read as
  // code after all the bodies, which go on from the next line.
  private gather(start: number, inComsub: boolean, atClose = false): void {
    let at = this.land(start);
    let restOfLine = false;
    for (const pending of this.pending) {
      const delimiter = delimiterOf(this.src.slice(pending.wordStart, pending.wordEnd));
      const read = readBody(this.src, at, { delimiter: delimiter.text, expands: !delimiter.quoted, stripTabs: pending.stripTabs, inComsub });
      this.done.push({ ...pending, inComsub, body: read.body, closed: read.closed, quoted: delimiter.quoted, delimiter: delimiter.text });
      if (read.resume > at) this.jumps.set(at, read.resume);
      at = read.resume;
      if (!read.restIsCode) continue;
      // bash fails on such a line once the substitution has closed, and when two bodies end so.
      if (atClose) throw new HeredocReadError('a here-document pending when its command substitution closed ends mid-line');
      if (restOfLine) throw new HeredocReadError('two here-documents end mid-line in a command substitution', 'unfollowed');
      restOfLine = true;
      const newline = this.src.indexOf('\n', at);
      at = newline === -1 ? this.src.length : newline + 1;
    }
    this.pending = [];
  }

  private rewrite(): HeredocReading {
    const edits = [
      ...this.done.map((d) => ({ from: d.opStart, to: d.wordEnd, text: `< ${removeContinuations(this.src.slice(d.wordStart, d.wordEnd))}`, heredoc: d })),
      ...[...this.jumps].map(([from, to]) => ({ from, to, text: '', heredoc: undefined })),
    ].sort((a, b) => a.from - b.from);
    let source = '';
    let from = 0;
    const heredocs: Heredoc[] = [];
    for (const edit of edits) {
      if (edit.from < from) throw new HeredocReadError('here-documents overlap', 'unfollowed');
      source += this.src.slice(from, edit.from);
      if (edit.heredoc) {
        const { body, closed, quoted, delimiter, inComsub } = edit.heredoc;
        heredocs.push({ at: source.length, length: edit.text.length, delimiter, quoted, body, closed, inComsub });
      }
      source += edit.text;
      from = edit.to;
    }
    return { source: source + this.src.slice(from), heredocs };
  }
}
