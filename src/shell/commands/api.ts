import type { Into } from '../recorder.js';
import type { UnresolvedKind } from '../types.js';
import type { Word } from '../words.js';

/** What a per-command extractor may report about one simple command. */
export interface CommandApi {
  /** The operand is a file the command reads. */
  read(word: Word): void;
  /**
   * The operand is a tree the command walks following symlinks (`grep -R`, `find -L`): every link met is read too.
   * `depth` 1: only the entries of a directory operand are looked at through their links (`ls -L`, `diff DIR DIR`).
   */
  walk(word: Word, mode?: 'read' | 'write', depth?: number): void;
  /**
   * The operand is a file the command creates or changes. What it leaves there is a file (or link, or fifo) unless
   * a directory stands there already; `leaves: 'any'` for a write that may make a directory (`mkdir`, a copy's
   * destination, `git init DIR`).
   */
  write(word: Word, leaves?: 'file' | 'any'): void;
  /** Every entry below the operand is changed (chmod -R, chown -R): each is a write, a blocked name among them refused. */
  changeTree(word: Word): void;
  /** The operand is removed (rm, rmdir, find -delete, the source of mv): a write, checked for dangerous targets. */
  remove(word: Word, recursive: boolean): void;
  /**
   * Something the check cannot see through. `path` (the default): a word it cannot resolve to a path inside the
   * boundary, which no rule lifts; `unknown`: an option, subcommand or program it does not know, which a rule may lift.
   */
  unresolved(word: Word | string, reason: string, kind?: UnresolvedKind): void;
  /** The command is not one the checker understands. */
  unknown(): void;
  /**
   * The line makes a symlink holding `target` as written (`ln -s`, `cp -s`) at `dest`, or inside it (see
   * {@link Into}): later paths through it follow it.
   */
  link(dest: Word, target: string, into: Into): void;
  /** `source` is copied or moved to `dest` (or into it): entries of a directory are written there, links kept made there. */
  transfer(source: Word, dest: Word, how: Transfer & { into: Into }): void;
  /** Another command runs as part of this one (wrappers, find -exec, xargs). */
  run(words: Word[]): void;
  /** Whether the word names an existing directory (symlinks followed) in every cwd the command may run in. */
  isDirectory(word: Word): boolean;
  /**
   * Whether the word may name an entry in some cwd the command may run in: one there now, one an earlier command of
   * the line may have made, or one the check cannot look up.
   */
  mayExist(word: Word): boolean;
  /** Why git run here would not use the workspace's own repository (see foreignRepository), or null. */
  foreignRepository(): string | null;
  /** The same api with the working directory changed to `dir` (git -C, tar -C, env -C); checks `dir` as a read. */
  chdir(dir: Word): CommandApi;
}

/** How a copy or move treats its source: `move` removes it, `follow` which links it follows, `sources` its access. */
export interface Transfer {
  move: boolean;
  /** `none`: links are copied as links (mv, cp -P, cp -r); `top`: the operand is followed (cp -H, cp -rl); `all` (cp -rL). */
  follow: 'none' | 'top' | 'all';
  /** `write` when the copy is a hard link (cp -l): writing the copy writes the source. */
  sources: 'read' | 'write';
}

/** Reads a command's arguments (argv without the name) and reports what it touches. */
export type Extractor = (args: Word[], api: CommandApi) => void;

/** A word made up by an extractor (a default operand such as `.`). */
export function syntheticWord(value: string): Word {
  return { source: value, value, pattern: value, glob: false, pipe: false, reason: '' };
}
