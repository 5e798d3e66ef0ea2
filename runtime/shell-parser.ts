import { createRequire } from 'node:module';
import { Language, Parser, type Tree, type TreeCursor } from 'web-tree-sitter';
import type { ShellParser, ShellSyntax, SyntaxNode } from '../src/shell/types.js';

let cached: Promise<ShellParser> | undefined;

/**
 * The bash parser backed by tree-sitter-bash, initialised once per process (about 40 ms) and shared.
 * Each parse copies the tree into plain {@link SyntaxNode}s and frees the wasm tree.
 *
 * @example
 * const parser = await loadShellParser();
 * const analysis = analyzeShellCommand(parser, 'ls src', ctx);
 */
export function loadShellParser(): Promise<ShellParser> {
  cached ??= createShellParser().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function createShellParser(): Promise<ShellParser> {
  await Parser.init();
  const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const language = await Language.load(wasm);
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(command: string): ShellSyntax {
      const tree = parser.parse(command);
      if (tree === null) return { root: emptyProgram(command), hasError: true };
      try {
        return { root: copyTree(tree, command), hasError: tree.rootNode.hasError };
      } finally {
        tree.delete();
      }
    },
  };
}

interface Draft {
  type: string;
  named: boolean;
  field: string | null;
  text: string;
  missing: boolean;
  start: number;
  end: number;
  children: Draft[];
}

// Iterative, so deeply nested input cannot overflow the stack while copying.
function copyTree(tree: Tree, source: string): SyntaxNode {
  const cursor: TreeCursor = tree.walk();
  try {
    const root = draftOf(cursor, source);
    const stack: Draft[] = [root];
    let descended = cursor.gotoFirstChild();
    while (stack.length > 0) {
      if (descended) {
        const draft = draftOf(cursor, source);
        (stack[stack.length - 1] as Draft).children.push(draft);
        stack.push(draft);
        descended = cursor.gotoFirstChild();
        continue;
      }
      stack.pop();
      if (stack.length === 0) break;
      if (cursor.gotoNextSibling()) {
        const draft = draftOf(cursor, source);
        (stack[stack.length - 1] as Draft).children.push(draft);
        stack.push(draft);
        descended = cursor.gotoFirstChild();
      } else {
        cursor.gotoParent();
      }
    }
    return root;
  } finally {
    cursor.delete();
  }
}

function draftOf(cursor: TreeCursor, source: string): Draft {
  return {
    type: cursor.nodeType,
    named: cursor.nodeIsNamed,
    field: cursor.currentFieldName,
    text: source.slice(cursor.startIndex, cursor.endIndex),
    missing: cursor.nodeIsMissing,
    start: cursor.startIndex,
    end: cursor.endIndex,
    children: [],
  };
}

function emptyProgram(command: string): SyntaxNode {
  return { type: 'program', named: true, field: null, text: command, missing: false, start: 0, end: command.length, children: [] };
}
