import { posix } from 'node:path';
import { findDangerousTarget } from './dangerous.js';
import { resolveFrom, type Cwds } from './cwd.js';
import { expandGlob, MAX_GLOB_MATCHES } from './glob.js';
import { findEscapingGlob, splitGlob } from './patterns.js';
import type { Transfer } from './commands/api.js';
import type { LinkOverlay } from './overlay.js';
import { lookupPhysical, type Lookup } from './physical.js';
import { entriesInTree, linksInTree, MAX_TREE_ENTRIES } from './tree.js';
import type { PathAccess, ShellAnalysis, ShellCommandInfo, ShellContext, ShellFs, UnresolvedKind } from './types.js';
import type { Word } from './words.js';

// Device files that read or write nothing of the filesystem's content.
const SAFE_WRITES = new Set(['/dev/null', '/dev/zero', '/dev/full', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/dev/tty']);
const SAFE_READS = new Set(['/dev/null', '/dev/stdin', '/dev/fd/0', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty']);

/**
 * Whether a copy, move or link lands inside its destination: `auto` when it is a directory (GNU without -t/-T),
 * `auto-entry` the same unless it is a symlink (`ln -n`).
 */
export type Into = 'yes' | 'no' | 'auto' | 'auto-entry';

/**
 * How one access is recorded. `followLeaf` false: the command changes the entry itself (rm, the source of mv), so a
 * final symlink is not followed. `leaves: 'file'`: see {@link Recorder.access}. `shown`: the path as the command wrote
 * it, when the path looked up is one the check made (a directory a glob lists is refused as the glob).
 */
interface RecordOptions {
  followLeaf?: boolean;
  leaves?: 'file' | undefined;
  shown?: string;
}

/** Collects what the walk finds, without duplicates (loop bodies are walked more than once). */
export class Recorder {
  readonly commands: ShellCommandInfo[] = [];
  readonly accesses: PathAccess[] = [];
  readonly unresolved: ShellAnalysis['unresolved'] = [];
  readonly unknownCommands: string[] = [];
  readonly dangerousRemovals: ShellAnalysis['dangerousRemovals'] = [];
  private readonly seen = new Set<string>();
  private readonly pendingLinks: [string, string][] = [];

  /** `ctx.fs` must be `overlay.fs`: lookups see the links the line has made so far. */
  constructor(
    private readonly ctx: ShellContext,
    readonly overlay: LinkOverlay,
  ) {}

  /** Records a simple command; the links earlier commands made are there from now on. */
  command(info: ShellCommandInfo): void {
    this.settle();
    if (this.once(`c\0${info.text}\0${info.argv.join('\0')}`)) this.commands.push(info);
  }

  /** Makes the links recorded so far part of the overlay: a link a command makes is there for the commands after it. */
  settle(): void {
    for (const [path, target] of this.pendingLinks.splice(0)) this.overlay.addLink(path, target);
  }

  /** Records a command the checker does not understand. */
  unknown(name: string): void {
    if (this.once(`u\0${name}`)) this.unknownCommands.push(name);
  }

  /** Records a word the checker cannot resolve. */
  unresolvedWord(word: string, command: string, reason: string, kind: UnresolvedKind = 'path'): void {
    if (this.once(`w\0${word}\0${command}\0${reason}`)) this.unresolved.push({ word, command, reason, kind });
  }

  /**
   * Records a file access of `word` from every working directory the command may run in. `leaves: 'file'`: a write
   * that leaves a file (or link, or fifo) at the path unless a directory stands there.
   */
  access(word: Word, mode: 'read' | 'write', cwds: Cwds, command: string, followLeaf = true, leaves?: 'file'): void {
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
      this.record(path, mode, from, command, { followLeaf, leaves });
      if (!word.glob) continue;
      // bash passes every match (or the pattern itself when none): each one is checked where it really leads.
      const matches = this.listGlob(word, from, command);
      for (const match of matches) this.record(match, mode, from, command, { followLeaf });
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
    // A directory the session may not read was not listed: the glob is refused as written, never by what is there.
    for (const dir of listed) this.record(dir, 'read', cwd, command, { shown: word.value });
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

  /** Records an access of `word` and of every symlink a link-following walk under it meets, `depth` levels down. */
  walk(word: Word, mode: 'read' | 'write', cwds: Cwds, command: string, depth = Infinity): void {
    this.access(word, mode, cwds, command);
    if (word.value === null || word.pipe) return;
    const roots = word.glob ? cwds.flatMap((cwd) => (cwd === null ? [] : (expandGlob(this.ctx.fs, cwd, word.pattern) ?? []).map((m) => resolveFrom(cwd, m)))) : cwds.map((cwd) => (cwd === null ? null : resolveFrom(cwd, word.value as string)));
    for (const root of roots) {
      if (root === null) continue;
      const links = linksInTree(this.ctx.fs, root, depth);
      if (links === null) this.unresolvedWord(word.source, command, `the tree it walks has more than ${MAX_TREE_ENTRIES} entries`);
      for (const link of links ?? []) this.record(link, mode, '/', command);
    }
  }

  // Without `followLeaf` the directory holding the entry is what is written. Once the line has made links, the path
  // is looked up twice: with them (the commands that made them ran) and without (they did not, or failed), and both
  // count.
  private record(path: string, mode: 'read' | 'write', cwd: string, command: string, opts: RecordOptions = {}): void {
    const { followLeaf = true, leaves, shown = path } = opts;
    // The same path is looked up again once the line has made more links (a loop body walked again).
    if (!this.once(`a\0${path}\0${mode}\0${cwd}\0${command}\0${followLeaf}\0${leaves}\0${shown}\0${this.overlay.size}`)) return;
    const worlds = this.overlay.size > 0 ? [this.ctx.fs, this.overlay.base] : [this.ctx.fs];
    const reached = new Set<string>();
    for (const fs of worlds) {
      const lookup = this.lookupEntry(fs, cwd, path, followLeaf);
      if ('unresolved' in lookup) {
        this.unresolvedWord(shown, command, lookup.unresolved);
        continue;
      }
      if (reached.has(lookup.path)) continue;
      reached.add(lookup.path);
      // A directory there at check time counts only while no earlier command of the line may have replaced it.
      const kind = leaves === undefined ? undefined : fs.kind(lookup.path) === 'dir' && !this.overlay.mayHaveChanged(lookup.path) ? 'directory' : 'other';
      this.accesses.push({ path: shown, mode, cwd, command, resolved: lookup.path, ...(lookup.throughLink ? { throughLink: true } : {}), ...(kind === undefined ? {} : { kind }) });
      if (mode === 'write' && this.ctx.fs.kind(lookup.path) === null) this.overlay.markMade(lookup.path);
      // The top repository's config is what makes git safe to run (see foreignRepository): a shell write there asks.
      if (mode === 'write' && `${lookup.path}/`.startsWith(`${posix.resolve(this.ctx.workspaceRoot)}/.git/`)) {
        this.unresolvedWord(shown, command, "writing into the workspace's .git changes what git runs (core.fsmonitor, hooks, aliases)");
      }
    }
  }

  private lookupEntry(fs: ShellFs, cwd: string, path: string, followLeaf: boolean): Lookup {
    const lookup = lookupPhysical(fs, cwd, path);
    if (followLeaf || !('path' in lookup)) return lookup;
    const parent = lookupPhysical(fs, cwd, posix.join(path, '..'));
    const leaf = posix.basename(posix.resolve(cwd, path));
    return 'path' in parent && fs.kind(posix.join(parent.path, leaf)) === 'link' ? parent : lookup;
  }

  /**
   * Where the entry `path` names sits, physically, without following a final symlink (the place a command makes
   * or replaces it); unresolved when the directory holding it cannot be found.
   */
  private place(cwd: string, path: string): Lookup {
    const leaf = posix.basename(path);
    if (leaf === '' || leaf === '.' || leaf === '..') return lookupPhysical(this.ctx.fs, cwd, path);
    const parent = lookupPhysical(this.ctx.fs, cwd, posix.dirname(path));
    return 'path' in parent ? { path: posix.join(parent.path, leaf), throughLink: parent.throughLink } : parent;
  }

  /**
   * Records that the line makes a symlink holding `target` at `dest` (`ln -s`, `cp -s`), or inside it when `into`
   * says so (`yes`, `no`, or `auto`: when it is a directory): later lookups follow it.
   */
  link(dest: Word, target: string, into: Into, cwds: Cwds, command: string): void {
    for (const cwd of cwds) {
      if (cwd === null) continue;
      const placed = this.placements(dest, posix.basename(target), into, cwd, command);
      // The link itself is written where it lands: a symlink named `.git` is refused there.
      for (const at of placed) this.record(at, 'write', cwd, command, { followLeaf: false, leaves: 'file' });
      this.makeLinks(placed, target, dest, cwd, command);
    }
  }

  /**
   * Records a copy or move of `source` to `dest` (or into it, see {@link link}): each entry of a source directory
   * is written at its new place (a blocked name among them is refused there), a moved entry is also removed where
   * it was, and a link kept as a link (`follow` none, or `top` below the operand) is made at its new place.
   */
  transfer(source: Word, dest: Word, how: Transfer & { into: Into }, cwds: Cwds, command: string): void {
    if (source.value === null || dest.value === null || source.pipe) return;
    for (const cwd of cwds) {
      if (cwd === null) continue;
      const names = source.glob ? this.listGlob(source, cwd, command) : [source.value];
      const into = names.length > 1 ? 'yes' : how.into;
      for (const name of names) this.transferOne(name, dest, into, how, cwd, command);
    }
  }

  // Where `dest` puts an entry named `name`: as dest, inside it, or either when the check cannot tell.
  private placements(dest: Word, name: string, into: Into, cwd: string, command: string): string[] {
    if (dest.value === null || dest.glob) {
      this.unresolvedWord(dest.source, command, 'where the entry lands is only known at run time, so later paths through it cannot be followed');
      return [];
    }
    const kind = into === 'auto' || into === 'auto-entry' ? this.directoryKind(dest, [cwd], into === 'auto-entry') : into === 'yes' ? 'dir' : 'other';
    const inside = name === '' || name === '.' || name === '..' ? [] : [posix.join(dest.value, name)];
    return kind === 'dir' ? inside : kind === 'other' ? [dest.value] : [dest.value, ...inside];
  }

  // Whether `word` names a directory in every cwd (`entry`: a final symlink is not followed); `unknown` when the
  // cwds disagree or an earlier command of the line may have made or removed it, or a link on the way (a `mkdir d`
  // before `ln -s T d` puts the link inside d; a link made in one branch is not there in the other).
  private directoryKind(word: Word, cwds: Cwds, entry = false): 'dir' | 'other' | 'unknown' {
    if (word.value === null || word.glob) return 'unknown';
    const kinds = new Set<string>();
    for (const cwd of cwds) {
      const found = cwd === null ? null : lookupPhysical(this.ctx.fs, cwd, word.value);
      const itself = cwd === null ? null : this.place(cwd, word.value);
      if (found === null || itself === null || 'unresolved' in found || 'unresolved' in itself) return 'unknown';
      if (this.overlay.mayHaveChanged(found.path) || this.overlay.mayHaveChanged(itself.path)) return 'unknown';
      if (entry && this.ctx.fs.kind(itself.path) === 'link') kinds.add('other');
      else kinds.add(this.ctx.fs.kind(found.path) === 'dir' ? 'dir' : 'other');
    }
    return kinds.size === 1 ? ([...kinds][0] as 'dir' | 'other') : 'unknown';
  }

  // A link that may land at either of two places (an earlier command may have made the destination a directory)
  // cannot be followed: whichever place the check picked, the other may be the real one.
  private makeLinks(placed: readonly string[], target: string, dest: Word, cwd: string, command: string): void {
    if (placed.length > 1) this.unresolvedWord(dest.source, command, 'an earlier command of the line may have made this a directory, so where the link lands is not known');
    else for (const at of placed) this.makeLink(at, target, cwd, command);
  }

  private makeLink(at: string, target: string, cwd: string, command: string): void {
    const where = this.place(cwd, at);
    if ('unresolved' in where) this.unresolvedWord(at, command, where.unresolved);
    else this.pendingLinks.push([where.path, target]);
  }

  private transferOne(name: string, dest: Word, into: Into, how: Transfer, cwd: string, command: string): void {
    const from = how.follow === 'none' ? this.place(cwd, name) : lookupPhysical(this.ctx.fs, cwd, name);
    if ('unresolved' in from) {
      this.unresolvedWord(name, command, from.unresolved);
      return;
    }
    const kind = this.ctx.fs.kind(from.path);
    if (this.overlay.madeBelow(from.path) || (kind === 'dir' && this.overlay.mayHaveChanged(from.path))) {
      this.unresolvedWord(name, command, 'an earlier command of the line changes what this tree holds, so the names it lands with are not known');
      return;
    }
    const placed = this.placements(dest, posix.basename(kind === 'link' ? name : from.path), into, cwd, command);
    // The entry itself lands there: a `hooks` directory moved into a `.git` is refused there, a file as a `.git` too.
    // Only a directory standing there at check time is known to land as one: a source missing then is something an
    // earlier command of the line made (a file as often as not), so it lands as a file.
    for (const at of placed) this.record(at, 'write', cwd, command, { followLeaf: false, leaves: kind === 'dir' ? undefined : 'file' });
    if (kind === 'link') {
      const target = this.ctx.fs.readlink(from.path);
      if (target === null) this.unresolvedWord(name, command, 'it is a link the check may not read');
      else this.makeLinks(placed, target, dest, cwd, command);
      return;
    }
    if (kind !== 'dir') return;
    const entries = entriesInTree(this.ctx.fs, from.path, how.follow === 'all');
    if (entries === null) {
      this.unresolvedWord(name, command, `the tree it copies or moves has more than ${MAX_TREE_ENTRIES} entries`);
      return;
    }
    for (const at of placed) {
      for (const entry of entries) {
        const copy = posix.join(at, entry.rel);
        this.record(copy, 'write', cwd, command, { followLeaf: false, leaves: entry.kind === 'dir' ? undefined : 'file' });
        if (how.move || how.sources === 'write') this.record(posix.join(from.path, entry.rel), 'write', '/', command, { followLeaf: false });
        if (entry.kind !== 'link' || how.follow === 'all') continue;
        const target = this.ctx.fs.readlink(posix.join(from.path, entry.rel));
        if (target === null) this.unresolvedWord(copy, command, 'a link in the tree cannot be read');
        else this.makeLink(copy, target, cwd, command);
      }
    }
  }

  /** Records a removal: a write, plus a dangerous-removal entry when the target is catastrophic. */
  removal(word: Word, recursive: boolean, cwds: Cwds, command: string): void {
    this.access(word, 'write', cwds, command, false);
    if (recursive) this.writeTree(word, cwds, command, 'remove');
    this.markRemoved(word, cwds, command);
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

  /**
   * Records a write of every entry below `word` that a recursive command changes (a nested repository's .git/config
   * too), up to MAX_TREE_ENTRIES, links as entries: `remove` (rm -r) unlinks them, the operand itself not followed
   * (the root itself is a dangerous removal instead); `change` (chmod -R, chown -R) changes their mode or owner, the
   * operand followed as those commands do. A target outside the workspace is refused by its own access, so it is
   * not walked.
   */
  writeTree(word: Word, cwds: Cwds, command: string, how: 'remove' | 'change'): void {
    if (word.value === null) return;
    const root = posix.resolve(this.ctx.workspaceRoot);
    for (const cwd of cwds) {
      if (cwd === null) continue;
      for (const name of word.glob ? this.listGlob(word, cwd, command) : [word.value]) {
        const where = how === 'remove' ? this.place(cwd, name) : lookupPhysical(this.ctx.fs, cwd, name);
        if (!('path' in where) || !(where.path.startsWith(`${root}/`) || (how === 'change' && where.path === root)) || this.ctx.fs.kind(where.path) !== 'dir') continue;
        const entries = entriesInTree(this.ctx.fs, where.path, false);
        if (entries === null) this.unresolvedWord(name, command, `the tree it ${how === 'remove' ? 'removes' : 'changes'} has more than ${MAX_TREE_ENTRIES} entries, so a blocked file in it cannot be ruled out`);
        for (const entry of entries ?? []) this.record(posix.join(where.path, entry.rel), 'write', '/', command, { followLeaf: false });
      }
    }
  }

  // Later commands must not trust what stood at a removed path at check time (see LinkOverlay.mayHaveChanged).
  private markRemoved(word: Word, cwds: Cwds, command: string): void {
    if (word.value === null) return;
    for (const cwd of cwds) {
      if (cwd === null) continue;
      for (const name of word.glob ? this.listGlob(word, cwd, command) : [word.value]) {
        const where = this.place(cwd, name);
        if ('path' in where) this.overlay.markRemoved(where.path);
      }
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
