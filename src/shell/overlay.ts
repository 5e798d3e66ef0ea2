import { posix } from 'node:path';
import type { ShellFs } from './types.js';

/**
 * The filesystem as the command line leaves it, as far as the check can tell: symlinks the line makes (`ln -s`,
 * `cp -s`, `cp -P`, `mv` of a link, links inside a tree moved or copied) are added with their targets, so a later
 * path through one resolves as the kernel would resolve it then (`ln -s .git/hooks h; echo x > h/pre-commit`).
 * Paths the line may have created (a write to a path that did not exist) are remembered: whether such a path is a
 * directory is not known. Only grows during one analysis; keys are physical absolute paths.
 */
export class LinkOverlay {
  /** The filesystem with the line's links added: what every lookup of the analysis goes through. */
  readonly fs: ShellFs;
  // null: the line makes two different links at one path (one branch or another), so lookups through it ask.
  private readonly links = new Map<string, string | null>();
  private readonly made = new Set<string>();
  private readonly removed = new Set<string>();

  constructor(readonly base: ShellFs) {
    this.fs = {
      kind: (p) => (this.links.has(p) ? 'link' : base.kind(p)),
      readlink: (p) => (this.links.has(p) ? (this.links.get(p) ?? null) : base.readlink(p)),
      list: (p) => {
        const names = base.list(p);
        const added = [...this.links.keys()].filter((l) => posix.dirname(l) === p).map((l) => posix.basename(l));
        if (added.length === 0) return names;
        return [...new Set([...(names ?? []), ...added])];
      },
    };
  }

  /** How many times the line has made or changed a link so far (loops walk again while it grows). */
  size = 0;

  /**
   * The line makes `path` a symlink holding `target`. A second, different target at the same path cannot be told
   * apart from the first at a later lookup (either branch may have run), so the link becomes unreadable: lookups
   * through it ask.
   */
  addLink(path: string, target: string): void {
    if (this.links.has(path) && [target, null].includes(this.links.get(path) ?? null)) return;
    this.links.set(path, this.links.has(path) ? null : target);
    this.made.add(path);
    this.size++;
  }

  /** The line may create `path` (it writes there and nothing was there at check time). */
  markMade(path: string): void {
    this.made.add(path);
  }

  /** The line may remove `path` (rm, rmdir, the source of mv). */
  markRemoved(path: string): void {
    this.removed.add(path);
  }

  /**
   * Whether an earlier command of the line may have changed what `path` is: made it, or removed it or a directory
   * above it (so something else may stand there now).
   */
  mayHaveChanged(path: string): boolean {
    if (this.made.has(path)) return true;
    for (let p = path; ; p = posix.dirname(p)) {
      if (this.removed.has(p)) return true;
      if (p === '/') return false;
    }
  }

  /** Whether an earlier command of the line may have made something below the directory `path`. */
  madeBelow(path: string): boolean {
    return [...this.made].some((p) => p.startsWith(`${path}/`));
  }
}
