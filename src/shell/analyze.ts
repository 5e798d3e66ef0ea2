import type { Cwds, Outcome } from './cwd.js';
import { bindHeredocs } from './heredoc/agree.js';
import { HeredocReadError } from './heredoc/lexer.js';
import { readHeredocs, type HeredocReading } from './heredoc/read.js';
import { LinkOverlay } from './overlay.js';
import { readableFs } from './readable-fs.js';
import { Recorder } from './recorder.js';
import { runCommand } from './run-command.js';
import { Scope, TooComplexError } from './scope.js';
import type { ShellAnalysis, ShellContext, ShellFs, ShellParser, SyntaxNode } from './types.js';
import { walkNode } from './walk.js';

// Longer input is refused as a parse error (ask) rather than analysed.
const MAX_COMMAND_LENGTH = 200_000;

/**
 * Finds statically what a bash command would run, read, write and remove, walking every simple command in
 * lists, pipelines, subshells, groups, control flow, functions, substitutions and here-docs. Never throws for
 * any input: what it cannot follow lands in `unresolved`, `unknownCommands` or `parseError`. It looks only at what
 * the session may read: outside, entries read as absent and directories as empty (see `readableFs`).
 *
 * @example
 * const analysis = analyzeShellCommand(await loadShellParser(), 'cd src && cat a.ts > ../out', ctx);
 */
export function analyzeShellCommand(parser: ShellParser, command: string, given: ShellContext): ShellAnalysis {
  const area = { roots: [given.workspaceRoot, ...given.readRoots], everywhere: given.allowOutsideWorkspace === true };
  const overlay = new LinkOverlay(memoizedFs(readableFs(memoizedFs(given.fs), area)));
  const ctx = { ...given, fs: overlay.fs };
  const rec = new Recorder(ctx, overlay);
  const scope = new Scope(ctx, parser, rec, { runCommand, walkSource, walkNode: (s, node, cwds) => walkNode(s, node, cwds) });
  let parseError: string | undefined;
  if (command.length > MAX_COMMAND_LENGTH) {
    parseError = `the command is longer than ${MAX_COMMAND_LENGTH} characters`;
  } else {
    try {
      parseError = walkProgram(scope, command, [ctx.cwd]).error;
    } catch (error) {
      if (!(error instanceof TooComplexError) && !(error instanceof RangeError)) throw error;
      parseError = error instanceof TooComplexError ? error.message : 'the command is nested too deeply to check';
    }
  }
  const analysis: ShellAnalysis = {
    commands: rec.commands,
    accesses: rec.accesses,
    unresolved: rec.unresolved,
    unknownCommands: rec.unknownCommands,
    dangerousRemovals: rec.dangerousRemovals,
  };
  if (parseError !== undefined) analysis.parseError = parseError;
  return analysis;
}

// One analysis looks at the same entries many times (every path resolves its cwd again); the memo lives only for
// this call, so nothing can go stale between calls.
function memoizedFs(fs: ShellFs): ShellFs {
  const kinds = new Map<string, ReturnType<ShellFs['kind']>>();
  const links = new Map<string, string | null>();
  return {
    kind: (p) => {
      if (!kinds.has(p)) kinds.set(p, fs.kind(p));
      return kinds.get(p) ?? null;
    },
    readlink: (p) => {
      if (!links.has(p)) links.set(p, fs.readlink(p));
      return links.get(p) ?? null;
    },
    list: (p) => fs.list(p),
  };
}

function walkSource(scope: Scope, source: string, cwds: Cwds): Outcome {
  const { outcome, error } = walkProgram(scope, source, cwds);
  if (error !== undefined) scope.rec.unresolvedWord(source, source, `the inner shell code does not parse: ${error}`);
  return outcome;
}

// Here-documents are read first, as bash reads them; tree-sitter parses the source with each one replaced by a
// placeholder redirection and its body removed, and must read the placeholders where they were put.
function walkProgram(scope: Scope, source: string, cwds: Cwds): { outcome: Outcome; error: string | undefined } {
  let reading: HeredocReading | undefined;
  let readError: string | undefined;
  try {
    reading = readHeredocs(source);
  } catch (error) {
    if (!(error instanceof HeredocReadError)) throw error;
    readError = error.message;
  }
  const syntax = scope.parser.parse(reading?.source ?? source);
  const disagreement = reading === undefined || syntax.hasError ? null : bindHeredocs(syntax.root, reading.heredocs);
  const outcome = walkNode(scope, syntax.root, cwds);
  return { outcome, error: readError ?? (syntax.hasError ? describeError(syntax.root) : (disagreement ?? undefined)) };
}

function describeError(root: SyntaxNode): string {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.type === 'ERROR') return `unexpected ${JSON.stringify(node.text.slice(0, 40))}`;
    if (node.missing) return `missing ${JSON.stringify(node.type)}`;
    stack.push(...node.children);
  }
  return 'the command does not parse';
}
