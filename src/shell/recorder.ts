import { findDangerousTarget } from './dangerous.js';
import { resolveFrom, type Cwds } from './cwd.js';
import { findEscapingGlob, splitGlob } from './patterns.js';
import type { PathAccess, ShellAnalysis, ShellCommandInfo, ShellContext } from './types.js';
import type { Word } from './words.js';

// Device files that read or write nothing of the filesystem's content.
const SAFE_WRITES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/dev/tty']);
const SAFE_READS = new Set(['/dev/null', '/dev/stdin', '/dev/fd/0', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty']);

/** Collects what the walk finds, without duplicates (loop bodies are walked more than once). */
export class Recorder {
  readonly commands: ShellCommandInfo[] = [];
  readonly accesses: PathAccess[] = [];
  readonly unresolved: ShellAnalysis['unresolved'] = [];
  readonly unknownCommands: string[] = [];
  readonly dangerousRemovals: ShellAnalysis['dangerousRemovals'] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly ctx: ShellContext) {}

  /** Records a simple command. */
  command(info: ShellCommandInfo): void {
    if (this.once(`c\0${info.text}\0${info.argv.join('\0')}`)) this.commands.push(info);
  }

  /** Records a command the checker does not understand. */
  unknown(name: string): void {
    if (this.once(`u\0${name}`)) this.unknownCommands.push(name);
  }

  /** Records a word the checker cannot resolve. */
  unresolvedWord(word: string, command: string, reason: string): void {
    if (this.once(`w\0${word}\0${command}\0${reason}`)) this.unresolved.push({ word, command, reason });
  }

  /** Records a file access of `word` from every working directory the command may run in. */
  access(word: Word, mode: 'read' | 'write', cwds: Cwds, command: string): void {
    if (word.pipe) return;
    if (word.value === null) {
      this.unresolvedWord(word.source, command, word.reason);
      return;
    }
    const path = word.value;
    if ((mode === 'write' ? SAFE_WRITES : SAFE_READS).has(path)) return;
    const escaping = word.glob ? findEscapingGlob(word.pattern) : null;
    if (escaping) this.unresolvedWord(word.source, command, escaping);
    for (const cwd of path.startsWith('/') ? cwds.slice(0, 1) : cwds) {
      if (cwd === null && !path.startsWith('/')) {
        this.unresolvedWord(word.source, command, 'the working directory is unknown here (a cd the check cannot follow)');
      } else if (this.once(`a\0${path}\0${mode}\0${cwd}\0${command}`)) {
        this.accesses.push({ path, mode, cwd: cwd ?? this.ctx.cwd, command });
      }
    }
  }

  /** Records a removal: a write, plus a dangerous-removal entry when the target is catastrophic. */
  removal(word: Word, recursive: boolean, cwds: Cwds, command: string): void {
    this.access(word, 'write', cwds, command);
    if (word.value === null) {
      if (recursive) this.dangerous(word.source, command, 'a recursive removal of a target only known at run time');
      return;
    }
    for (const cwd of word.value.startsWith('/') ? [null] : cwds) {
      if (cwd === null && !word.value.startsWith('/')) continue;
      const base = cwd ?? '/';
      const glob = word.glob ? splitGlob(word.pattern) : null;
      const target = resolveFrom(base, glob ? glob.base : word.value);
      const reason = findDangerousTarget(target, this.ctx);
      if (reason && (!glob || glob.wholeDirectory)) this.dangerous(word.source, command, glob ? `${word.source} empties ${target}: ${reason}` : reason);
    }
  }

  private dangerous(target: string, command: string, reason: string): void {
    if (this.once(`d\0${target}\0${command}\0${reason}`)) this.dangerousRemovals.push({ target, command, reason });
  }

  private once(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
