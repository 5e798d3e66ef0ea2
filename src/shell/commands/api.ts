import type { Word } from '../words.js';

/** What a per-command extractor may report about one simple command. */
export interface CommandApi {
  /** The operand is a file the command reads. */
  read(word: Word): void;
  /** The operand is a file the command creates or changes. */
  write(word: Word): void;
  /** The operand is removed (rm, rmdir, find -delete, the source of mv): a write, checked for dangerous targets. */
  remove(word: Word, recursive: boolean): void;
  /** Something the check cannot see through (a script argument, a config key that runs commands). */
  unresolved(word: Word | string, reason: string): void;
  /** The command is not one the checker understands. */
  unknown(): void;
  /** Another command runs as part of this one (wrappers, find -exec, xargs). */
  run(words: Word[]): void;
  /** The same api with the working directory changed to `dir` (git -C, tar -C, env -C); checks `dir` as a read. */
  chdir(dir: Word): CommandApi;
}

/** Reads a command's arguments (argv without the name) and reports what it touches. */
export type Extractor = (args: Word[], api: CommandApi) => void;

/** A word made up by an extractor (a default operand such as `.`). */
export function syntheticWord(value: string): Word {
  return { source: value, value, pattern: value, glob: false, pipe: false, reason: '' };
}
