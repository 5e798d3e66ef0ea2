import { posix } from 'node:path';
import { findDangerousTarget } from './dangerous.js';
import { resolveFrom, type Cwds } from './cwd.js';
import { expandGlob, MAX_GLOB_MATCHES } from './glob.js';
import { findEscapingGlob, splitGlob } from './patterns.js';
import { lookupPhysical } from './physical.js';
import { linksInTree, MAX_TREE_ENTRIES } from './tree.js';
import type { PathAccess, ShellAnalysis, ShellCommandInfo, ShellContext, UnresolvedKind } from './types.js';
import type { Word } from './words.js';

// Device files that read or write nothing of the filesystem's content.
const SAFE_WRITES = new Set(['/dev/null', '/dev/zero', '/dev/full', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/dev/tty']);
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
  unresolvedWord(word: string, command: string, reason: string, kind: UnresolvedKind = 'path'): void {
    if (this.once(`w\0${word}\0${command}\0${reason}`)) this.unresolved.push({ word, command, reason, kind });
  }

  /** Records a file access of `word` from every working directory the command may run in. */
  access(word: Word, mode: 'read' | 'write', cwds: Cwds, command: string, followLeaf = true): void {
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
        continue;
      }
      const from = cwd ?? this.ctx.cwd;
      this.record(path, mode, from, command, followLeaf);
      if (!word.glob) continue;
      // bash passes every match (or the pattern itself when none): each one is checked where it really leads.
      const matches = this.listGlob(word, from, command);
      for (const match of matches) this.record(match, mode, from, command, followLeaf);
    }
  }

  /** Records the directories bash lists to expand a glob word (in any position, even `echo *`); returns the matches. */
  listGlob(word: Word, cwd: string, command: string): string[] {
    if (!word.glob || word.value === null) return [];
    const escaping = findEscapingGlob(word.pattern);
    if (escaping) this.unresolvedWord(word.source, command, escaping);
    const listed: string[] = [];
    const matches = expandGlob(this.ctx.fs, cwd, word.pattern, listed);
    if (matches === null) this.unresolvedWord(word.source, command, `the glob matches more than ${MAX_GLOB_MATCHES} entries`);
    for (const dir of listed) this.record(dir, 'read', '/', command);
    return matches ?? [];
  }

  /** {@link listGlob} from every cwd the command may run in. */
  globWords(words: readonly Word[], cwds: Cwds, command: string): void {
    for (const word of words) {
      if (!word.glob) continue;
      for (const cwd of cwds) {
        if (cwd === null) this.unresolvedWord(word.source, command, 'the working directory is unknown here (a cd the check cannot follow)');
        else this.listGlob(word, cwd, command);
      }
    }
  }

  /** Records an access of `word` and of every symlink a link-following recursive walk under it meets. */
  walk(word: Word, mode: 'read' | 'write', cwds: Cwds, command: string): void {
    this.access(word, mode, cwds, command);
    if (word.value === null || word.pipe) return;
    const roots = word.glob ? cwds.flatMap((cwd) => (cwd === null ? [] : (expandGlob(this.ctx.fs, cwd, word.pattern) ?? []).map((m) => resolveFrom(cwd, m)))) : cwds.map((cwd) => (cwd === null ? null : resolveFrom(cwd, word.value as string)));
    for (const root of roots) {
      if (root === null) continue;
      const links = linksInTree(this.ctx.fs, root);
      if (links === null) this.unresolvedWord(word.source, command, `the tree it walks has more than ${MAX_TREE_ENTRIES} entries`);
      for (const link of links ?? []) this.record(link, mode, '/', command);
    }
  }

  // `followLeaf` false: the command changes the entry itself (rm, the source of mv), so a final symlink is not
  // followed; the directory holding the entry is what it writes.
  private record(path: string, mode: 'read' | 'write', cwd: string, command: string, followLeaf = true): void {
    if (!this.once(`a\0${path}\0${mode}\0${cwd}\0${command}\0${followLeaf}`)) return;
    let lookup = lookupPhysical(this.ctx.fs, cwd, path);
    if (!followLeaf && 'path' in lookup) {
      const parent = lookupPhysical(this.ctx.fs, cwd, posix.join(path, '..'));
      const leaf = posix.basename(posix.resolve(cwd, path));
      if ('path' in parent && this.ctx.fs.kind(posix.join(parent.path, leaf)) === 'link') lookup = parent;
    }
    if ('unresolved' in lookup) {
      this.unresolvedWord(path, command, lookup.unresolved);
      return;
    }
    this.accesses.push({ path, mode, cwd, command, resolved: lookup.path });
    // The top repository's config is what makes git safe to run (see foreignRepository): a shell write there asks.
    if (mode === 'write' && `${lookup.path}/`.startsWith(`${posix.resolve(this.ctx.workspaceRoot)}/.git/`)) {
      this.unresolvedWord(path, command, "writing into the workspace's .git changes what git runs (core.fsmonitor, hooks, aliases)");
    }
  }

  /** Records a removal: a write, plus a dangerous-removal entry when the target is catastrophic. */
  removal(word: Word, recursive: boolean, cwds: Cwds, command: string): void {
    this.access(word, 'write', cwds, command, false);
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
