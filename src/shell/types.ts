import type { ErrorCode } from '../errors.js';

/** One node of a parsed shell command: a plain copy of the tree-sitter-bash node, free of wasm handles. */
export interface SyntaxNode {
  readonly type: string;
  /** Whether the grammar names this node (false for punctuation and operators such as `&&` or `>`). */
  readonly named: boolean;
  /** The field this node fills in its parent (`name`, `argument`, `redirect`, `destination`...), if any. */
  readonly field: string | null;
  readonly text: string;
  /** A token the parser inserted to recover from an error. */
  readonly missing: boolean;
  /** Offsets of the node in the parsed source (UTF-16 code units, as JavaScript strings index). */
  readonly start: number;
  readonly end: number;
  readonly children: readonly SyntaxNode[];
}

/** A parsed shell command: the root `program` node and whether the parser had to recover from errors. */
export interface ShellSyntax {
  readonly root: SyntaxNode;
  readonly hasError: boolean;
}

/** Parses bash source into a {@link ShellSyntax}; the runtime provides one backed by tree-sitter-bash. */
export interface ShellParser {
  parse(command: string): ShellSyntax;
}

/** What the checker may look at on disk, read-only, while checking: globs, symlinks, trees a command walks. */
export interface ShellFs {
  /** The kind of the entry at an absolute path, a final symlink not followed; null when there is none. */
  kind(path: string): 'dir' | 'file' | 'link' | 'other' | null;
  /** The names in a directory (without `.` and `..`), or null when it cannot be listed. */
  list(path: string): string[] | null;
  /** A symlink's target as stored, or null. */
  readlink(path: string): string | null;
}

/** Where a command runs; every path is absolute. */
export interface ShellContext {
  cwd: string;
  home: string;
  workspaceRoot: string;
  readRoots: readonly string[];
  /** Whether the session may read outside its roots: the check then looks everywhere but the kernel's magic paths. @default false */
  allowOutsideWorkspace?: boolean;
  /**
   * The filesystem as it is when the check runs (read-only; nothing is cached across calls). The check looks only at
   * what the session may read (see `readableFs`): nothing it decides or says depends on what lies outside.
   */
  fs: ShellFs;
}

/** One file a command would read or write. */
export interface PathAccess {
  /** The word with `~` and `$HOME` expanded, relative or absolute as written (a glob stays a pattern). */
  path: string;
  mode: 'read' | 'write';
  /** The tracked working directory at that point; relative paths resolve against it. */
  cwd: string;
  /** The text of the simple command that accesses it. */
  command: string;
  /** The absolute path the kernel reaches (symlinks followed, `..` taken physically), which the resolver checks. */
  resolved?: string;
  /** A symlink on the way led to `resolved`: a refusal says so, and nothing of where. */
  throughLink?: boolean;
  /**
   * What a write leaves at `resolved`, where the command says: `other` for a file, symlink or fifo (a redirect,
   * `touch`, `tee`, `ln`, a copy of a file), `directory` when one stands there already (the write goes into it or
   * fails). Unset when the command does not say (`mkdir x/.git` and `> x/.git` differ only so).
   */
  kind?: 'directory' | 'other';
}

/** One simple command found in the source (wrapped commands are listed on their own too). */
export interface ShellCommandInfo {
  name: string;
  argv: string[];
  text: string;
}

/**
 * Why a word asks: `path`, it cannot be resolved to a path inside the boundary (or it is code the shell evaluates),
 * which no permission rule may lift; `unknown`, the checker does not know an option, subcommand or program, which an
 * allow rule for the command lifts.
 */
export type UnresolvedKind = 'path' | 'unknown';

/** What a shell command would do, found statically. */
export interface ShellAnalysis {
  commands: ShellCommandInfo[];
  accesses: PathAccess[];
  /** Words the checker cannot resolve: expansions in a path position, `~user`, escaping globs, unknown cwd. */
  unresolved: { word: string; command: string; reason: string; kind: UnresolvedKind }[];
  unknownCommands: string[];
  dangerousRemovals: { target: string; command: string; reason: string }[];
  parseError?: string;
}

/** Checks one access; throws a ToolwardenError (OUTSIDE_WORKSPACE, NOT_READABLE, BLOCKED_PATH...) to refuse it. */
export interface ShellPathResolver {
  read(path: string, cwd: string): void;
  /** `kind`: what the write leaves there, where the command says (see {@link PathAccess.kind}). */
  write(path: string, cwd: string, kind?: 'directory' | 'other'): void;
}

/** The static verdict on one simple command, before any permission rule is applied. */
export interface CommandCheck {
  /** The command's text, as listed in {@link ShellCheck.commands}. */
  text: string;
  /** `deny` when one of its paths is refused, `ask` when it has reasons, `allow` otherwise. */
  verdict: 'allow' | 'ask' | 'deny';
  /** Why it is not `allow` (the command's text is not repeated); empty when it is. */
  reasons: string[];
  /** It is a dangerous removal. */
  dangerous: boolean;
  /** Some reason is of kind `path` (see {@link UnresolvedKind}): no rule may lift this command's ask. */
  boundary: boolean;
}

/** The static verdict on a shell command, before any permission rule is applied. */
export interface ShellCheck {
  /** The strictest verdict over every command and the whole-call reasons. */
  verdict: 'allow' | 'ask' | 'deny';
  /** Every reason, each prefixed with the command it belongs to; for `deny`, the refusals only. */
  reasons: string[];
  code?: ErrorCode;
  /** The path whose refusal decided a deny. */
  decidingPath?: string;
  /** A dangerous removal was found: the policy must ask and must not offer "always allow". */
  dangerous: boolean;
  /** Each simple command's text, for per-command rule matching. */
  commands: string[];
  /** The verdict of each distinct command text, in the order of `commands`: the policy's default for that command. */
  perCommand: CommandCheck[];
  /**
   * Reasons that belong to no listed command (a parse failure, a redirect on a group, an assignment prefix,
   * inner code that does not parse): rules matching the commands never see them, so they hold for the whole call.
   */
  callReasons: string[];
  /** Asks no permission rule may lift: words that cannot be resolved to a path inside the boundary, code evaluated at run time. */
  boundaryReasons: string[];
}
