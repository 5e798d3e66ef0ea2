import type { SyntaxNode } from '../types.js';
import type { Heredoc } from './read.js';

// The placeholder nodes of every parsed program, and the here-document each stands for.
const PLACEHOLDERS = new WeakMap<SyntaxNode, Heredoc>();

/** The here-document a `<` redirection node stands for, when it is a placeholder {@link bindHeredocs} bound. */
export function heredocOf(node: SyntaxNode): Heredoc | undefined {
  return PLACEHOLDERS.get(node);
}

/**
 * Binds each placeholder of the rewritten source to the redirection node tree-sitter made of it, and says why the
 * two readings differ, or null when they agree: every placeholder is a `<` redirection exactly where it was put,
 * inside a command substitution exactly when bash read it inside one, and tree-sitter reads no here-document of
 * its own. Where they differ, what bash runs is not what the tree says.
 */
export function bindHeredocs(root: SyntaxNode, heredocs: readonly Heredoc[]): string | null {
  const byOffset = new Map(heredocs.map((h) => [h.at, h]));
  let bound = 0;
  const stack: [SyntaxNode, boolean][] = [[root, false]];
  while (stack.length > 0) {
    const [node, inComsub] = stack.pop() as [SyntaxNode, boolean];
    if (node.type === 'heredoc_redirect') return 'the parser reads a here-document where bash reads none';
    const operator = node.type === 'file_redirect' ? node.children.find((c) => c.type === '<') : undefined;
    const heredoc = operator === undefined ? undefined : byOffset.get(operator.start);
    if (heredoc !== undefined) {
      const target = node.children.find((c) => c.field === 'destination');
      if (target?.end !== heredoc.at + heredoc.length || heredoc.inComsub !== inComsub) {
        return `bash and the parser read the here-document ${JSON.stringify(heredoc.delimiter)} differently`;
      }
      PLACEHOLDERS.set(node, heredoc);
      bound++;
    }
    const inner = inComsub || node.type === 'process_substitution' || (node.type === 'command_substitution' && node.text.startsWith('$('));
    for (const child of node.children) stack.push([child, inner]);
  }
  return bound === heredocs.length ? null : `bash reads ${heredocs.length} here-documents where the parser reads ${bound}`;
}
