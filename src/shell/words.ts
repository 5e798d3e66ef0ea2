import { escapeLiteral, expandBraces, hasGlob, unescapePattern } from './patterns.js';
import type { SyntaxNode } from './types.js';

/** One word of a command after brace expansion. */
export interface Word {
  /** The source text of the argument the word came from. */
  source: string;
  /** The literal value (glob characters kept as written), or null when it is only known at run time. */
  value: string | null;
  /** The escaped pattern form of the value (see patterns.ts); empty when value is null. */
  pattern: string;
  glob: boolean;
  /** A process substitution: a pipe (`/dev/fd/N`), not a file of the workspace. */
  pipe: boolean;
  /** Why the value is unknown; empty when it is known. */
  reason: string;
}

type Piece = { pattern: string } | { reason: string } | { pipe: true };
interface Env {
  home: string;
  vars: Bindings;
}

/** Variables whose value the check knows at this point (a `for` loop's current value). */
export type Bindings = ReadonlyMap<string, string>;

const NO_BINDINGS: Bindings = new Map();

/**
 * Evaluates an argument node to its words: quotes removed, `~`, `$HOME` and bound variables expanded, braces
 * expanded. An unquoted bound variable whose value would be split or globbed stays unknown.
 */
export function evaluateWord(node: SyntaxNode, home: string, vars: Bindings = NO_BINDINGS): Word[] {
  const env: Env = { home, vars };
  const piece = evaluatePiece(node, env, true, false);
  if ('pipe' in piece) return [{ source: node.text, value: '/dev/fd/63', pattern: '', glob: false, pipe: true, reason: '' }];
  if ('reason' in piece) return [dynamicWord(node.text, piece.reason)];
  const patterns = expandBraces(piece.pattern);
  if (patterns === null) return [dynamicWord(node.text, 'the brace expansion makes too many words')];
  return patterns.map((pattern) => ({ source: node.text, value: unescapePattern(pattern), pattern, glob: hasGlob(pattern), pipe: false, reason: '' }));
}

/** A word whose value is only known at run time. */
export function dynamicWord(source: string, reason: string): Word {
  return { source, value: null, pattern: '', glob: false, pipe: false, reason };
}

function evaluatePiece(node: SyntaxNode, env: Env, first: boolean, quoted: boolean): Piece {
  const home = env.home;
  switch (node.type) {
    case 'word':
    case 'command_name':
      if (node.type === 'command_name' && node.children[0]) return evaluatePiece(node.children[0], env, first, quoted);
      return unquotedWord(node.text, home, first);
    case 'number':
    case 'brace_expression':
    case 'extglob_pattern':
    case 'regex':
      return { pattern: node.text };
    case 'raw_string':
      return { pattern: escapeLiteral(node.text.slice(1, -1)) };
    case 'string':
      return evaluateString(node, env);
    case 'translated_string':
      return concatenate(node.children.filter((c) => c.named), env, false, true);
    case 'ansi_c_string': {
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      return decoded === null ? { reason: `${node.text} holds an escape the checker does not decode` } : { pattern: escapeLiteral(decoded) };
    }
    case 'string_content':
      return { pattern: escapeLiteral(unescapeDoubleQuoted(node.text)) };
    case 'concatenation':
      return concatenate(node.children, env, first, quoted);
    case 'simple_expansion':
    case 'expansion':
      return expandVariable(node, env, quoted);
    case 'process_substitution':
      return { pipe: true };
    case 'unary_expression':
      // Inside `[ ]` and `[[ ]]` the grammar reads `~/x` as bitwise-not applied to `/x`.
      if (node.children[0]?.type === '~') return unquotedWord(node.text, home, first);
      return { reason: `${node.text} is an expression, not a word` };
    case 'command_substitution':
      return { reason: `the command substitution ${node.text} is only known at run time` };
    default:
      return { reason: `${node.text} (${node.type.replace(/_/g, ' ')}) is only known at run time` };
  }
}

function concatenate(children: readonly SyntaxNode[], env: Env, first: boolean, quoted: boolean): Piece {
  let pattern = '';
  for (const [i, child] of children.entries()) {
    if (!child.named) {
      if (child.type !== '"') pattern += quoted ? escapeLiteral(child.text) : child.text;
      continue;
    }
    const piece = evaluatePiece(child, env, first && i === 0, quoted);
    if (!('pattern' in piece)) return 'pipe' in piece ? { reason: `${child.text} is a pipe joined to other text` } : piece;
    pattern += piece.pattern;
  }
  return { pattern };
}

// tree-sitter-bash splits a double-quoted string at its newlines and keeps them in no node, so the text between
// the expansions is read from the source, not from the nodes.
function evaluateString(node: SyntaxNode, env: Env): Piece {
  let pattern = '';
  let at = 1;
  const literal = (to: number): string => escapeLiteral(unescapeDoubleQuoted(node.text.slice(at, to)));
  for (const child of node.children) {
    if (!child.named || child.type === 'string_content') continue;
    pattern += literal(child.start - node.start);
    const piece = evaluatePiece(child, env, false, true);
    if (!('pattern' in piece)) return 'pipe' in piece ? { reason: `${child.text} is a pipe joined to other text` } : piece;
    pattern += piece.pattern;
    at = child.end - node.start;
  }
  return { pattern: pattern + literal(node.text.endsWith('"') && node.text.length > at ? node.text.length - 1 : node.text.length) };
}

function expandVariable(node: SyntaxNode, env: Env, quoted: boolean): Piece {
  const named = node.children.filter((c) => c.named);
  const plain = node.children.every((c) => c.named ? c.type === 'variable_name' : ['$', '${', '}'].includes(c.type));
  const name = plain && named.length === 1 ? named[0]?.text : undefined;
  if (name === 'HOME') return { pattern: escapeLiteral(env.home) };
  const bound = name === undefined ? undefined : env.vars.get(name);
  // Unquoted, bash splits the value on IFS and globs it: only a value that neither splits nor globs is one word.
  if (bound !== undefined && (quoted || /^[^\s*?[\]\\'"]+$/.test(bound))) return { pattern: escapeLiteral(bound) };
  return { reason: `the variable ${node.text} is only known at run time` };
}

function unquotedWord(text: string, home: string, first: boolean): Piece {
  let rest = text;
  let pattern = '';
  if (first && rest.startsWith('~')) {
    const end = rest.indexOf('/') === -1 ? rest.length : rest.indexOf('/');
    const prefix = rest.slice(0, end);
    if (prefix !== '~') return { reason: `${prefix} names another user's home or a directory stack entry` };
    pattern = escapeLiteral(home);
    rest = rest.slice(end);
  }
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i] as string;
    if (c !== '\\') {
      pattern += c;
    } else if (rest[i + 1] === '\n') {
      i++;
    } else if (i + 1 < rest.length) {
      pattern += escapeLiteral(rest[i + 1] as string);
      i++;
    }
  }
  return { pattern };
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** The value of a `$'...'` string as bash decodes it; null for escapes it does not handle (\c, \u beyond BMP...). */
export function decodeAnsiC(body: string): string | null {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = body[++i];
    if (n === undefined) return null;
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(body.slice(i));
    const octal = /^([0-7]{1,3})/.exec(body.slice(i));
    const unicode = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(body.slice(i));
    if (hex) {
      out += String.fromCharCode(parseInt(hex[1] as string, 16));
      i += hex[0].length - 1;
    } else if (octal) {
      out += String.fromCharCode(parseInt(octal[1] as string, 8) & 0xff);
      i += octal[0].length - 1;
    } else if (unicode) {
      const code = parseInt((unicode[1] ?? unicode[2]) as string, 16);
      if (code > 0x10ffff) return null;
      out += String.fromCodePoint(code);
      i += unicode[0].length - 1;
    } else {
      return null;
    }
    if (out.includes('\0')) return null;
  }
  return out;
}
