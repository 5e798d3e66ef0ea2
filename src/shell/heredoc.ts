import type { SyntaxNode } from './types.js';

// `<<` or `<<-` (not `<<<`) and the delimiter word, quotes included.
const OPERATOR = /(?<!<)<<(-?)(?!<)[ \t]*((?:[^\s;&|<>()'"\\]|'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|\\.)+)/g;

interface Heredoc {
  /** The delimiter after quote removal, and whether any part was quoted (then the body is literal). */
  delimiter: string;
  /** Where bash's body ends: the end of the closing line, or the end of the source when it is unclosed. */
  end: number;
}

/**
 * Reads the here-documents of `source` the way bash does, and rewrites delimiters tree-sitter misreads: a
 * partly quoted delimiter (`E"O"F`, which bash reads as a quoted `EOF`) becomes `'EOF'`. Bash's bodies start
 * after the line of their operator, one after the other, and end at the first line that is the delimiter
 * exactly (`<<-`: after leading tabs only).
 */
export function readHeredocs(source: string): { source: string; heredocs: Heredoc[] } {
  let rewritten = source;
  if (source.includes('<<')) {
    rewritten = source.replace(OPERATOR, (whole, dash: string, word: string) => {
      if (!/['"\\]/.test(word) || /^'[^']*'$|^"[^"]*"$/.test(word)) return whole;
      const bare = removeQuotes(word);
      return bare.includes("'") ? whole : `<<${dash}'${bare}'`;
    });
  }
  const heredocs: Heredoc[] = [];
  if (!rewritten.includes('<<')) return { source: rewritten, heredocs };
  let bodyFrom = 0;
  for (const match of rewritten.matchAll(OPERATOR)) {
    const index = match.index;
    const lineEnd = rewritten.indexOf('\n', index);
    // The first heredoc on a line starts after that line; the next ones after the previous body.
    let start = lineEnd === -1 ? rewritten.length : lineEnd + 1;
    if (start < bodyFrom) start = bodyFrom;
    const delimiter = removeQuotes(match[2] as string);
    const stripTabs = match[1] === '-';
    let end = rewritten.length;
    let at = start;
    while (at < rewritten.length) {
      const next = rewritten.indexOf('\n', at);
      const line = rewritten.slice(at, next === -1 ? rewritten.length : next);
      if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter) {
        end = at + line.length;
        break;
      }
      if (next === -1) break;
      at = next + 1;
    }
    heredocs.push({ delimiter, end });
    bodyFrom = end + 1;
  }
  return { source: rewritten, heredocs };
}

/**
 * Why tree-sitter's reading of the here-documents differs from bash's, or null when they agree: the same
 * number of here-documents, each ending where bash ends it. Where they differ, what runs is not certain.
 */
export function heredocDisagreement(root: SyntaxNode, heredocs: readonly Heredoc[]): string | null {
  const parsed: SyntaxNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.type === 'heredoc_redirect') parsed.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as SyntaxNode);
  }
  if (parsed.length === 0 && heredocs.length === 0) return null;
  parsed.sort((a, b) => a.start - b.start);
  if (parsed.length !== heredocs.length) return `bash reads ${heredocs.length} here-documents where the parser reads ${parsed.length}`;
  for (const [i, node] of parsed.entries()) {
    const end = node.children.find((c) => c.type === 'heredoc_end');
    const expected = heredocs[i] as Heredoc;
    if (end === undefined || end.end !== expected.end) return `bash ends the here-document ${JSON.stringify(expected.delimiter)} elsewhere than the parser does`;
  }
  return null;
}

function removeQuotes(word: string): string {
  return word.replace(/'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g, (_, single?: string, double?: string, escaped?: string) => single ?? (double !== undefined ? double.replace(/\\([$`"\\])/g, '$1') : (escaped ?? '')));
}
