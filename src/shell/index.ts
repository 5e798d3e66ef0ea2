/** Static analysis of shell commands for the bash tool: what they run, read, write and remove. */
export { analyzeShellCommand } from './analyze.js';
export { checkShellCommand } from './check.js';
export type { CommandCheck, PathAccess, ShellAnalysis, ShellCheck, ShellCommandInfo, ShellContext, ShellFs, ShellParser, ShellPathResolver, ShellSyntax, SyntaxNode, UnresolvedKind } from './types.js';
