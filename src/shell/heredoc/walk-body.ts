import type { Cwds } from '../cwd.js';
import type { Scope } from '../scope.js';
import type { ShellParser } from '../types.js';
import { HeredocReadError } from './lexer.js';
import { bodyExpansions, readHeredocs, type BodyExpansion, type Heredoc } from './read.js';

/**
 * Checks what a here-document body runs when its redirection is performed, from the cwd of its command: nothing
 * for a quoted delimiter (the body is data); for an unquoted one, each `$(...)`, `${...}`, `$((...))` and
 * backquoted command bash expands in it, like any other word.
 */
export function walkHeredocBody(scope: Scope, heredoc: Heredoc, cwds: Cwds, command: string): void {
  if (heredoc.quoted || !/[$`]/.test(heredoc.body)) return;
  let expansions: BodyExpansion[];
  try {
    expansions = bodyExpansions(heredoc.body);
  } catch (error) {
    if (!(error instanceof HeredocReadError)) throw error;
    scope.rec.unresolvedWord(`<<${heredoc.delimiter}`, command, `the here-document body does not expand cleanly: ${error.message}`);
    return;
  }
  for (const expansion of expansions) {
    if (expansion.kind === 'backquote') scope.walkSource(expansion.code, cwds);
    else if (readsAsOneString(scope.parser, expansion.text)) scope.walkSource(`: "${expansion.text}"`, cwds);
    else scope.rec.unresolvedWord(expansion.text, command, 'the parser reads this expansion of a here-document body otherwise than bash');
  }
}

// Inside double quotes an expansion expands as in the body; the parser must read `"text"` as one string, so that
// what it walks is the expansion bash found.
function readsAsOneString(parser: ShellParser, text: string): boolean {
  let source: string;
  try {
    source = readHeredocs(`: "${text}"`).source;
  } catch (error) {
    if (error instanceof HeredocReadError) return false;
    throw error;
  }
  const syntax = parser.parse(source);
  const statements = syntax.root.children.filter((c) => c.named);
  const args = statements[0]?.children.filter((c) => c.field === 'argument') ?? [];
  return !syntax.hasError && statements.length === 1 && args.length === 1 && args[0]?.type === 'string' && args[0].start === 2 && args[0].end === source.length;
}
