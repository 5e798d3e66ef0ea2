import { lstatSync, readdirSync, rmSync, statfsSync, type BigIntStats, type Dirent } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { posix } from 'node:path';
import { isBareRepositoryCodeEntry, isBareRepositoryLayout, layoutRuleSkips, rootRepositoryIsHosts } from '../../src/path-guard/bare-repository.js';
import { blockedEntryMatcher, type BlockedEntry } from '../../src/path-guard/blocklist.js';
import { EMPTY_DIR_SIGNATURE, type BlockedSnapshot } from '../../src/sandbox/blocked-changes.js';
import { mayTrustUnchangedCtime } from '../../src/sandbox/ctime-trust.js';

/** Directories one walk of the workspace visits at most before it stops and says so. @default 20000 */
export const DEFAULT_SCAN_MAX_DIRS = 20_000;
// Entries summed into one blocked directory's signature; past it the signature says "big" and changes go unseen.
const SIGNATURE_MAX_ENTRIES = 2_000;
/**
 * Blocked directories read empty, by path → `<dev>:<inode>:<ctime ns>` then, kept only where that ctime may be
 * trusted (src/sandbox/ctime-trust.ts): the same identity later means still empty, without reading it again. A
 * session's standing sandbox keeps a mount-point stub for each missing top-level name, and each is walked twice
 * per command. Bounded; a stale entry only costs a read.
 */
const readEmpty = new Map<string, string>();
const READ_EMPTY_MAX = 4_096;
/** statfs type by device, for the trust rule. */
const fsTypeByDevice = new Map<bigint, number>();

/** A walk's snapshot, with what it read of the workspace's top two levels (directory → name → entry). */
export interface BlockedScan extends BlockedSnapshot {
  /** The entries of the workspace root and of each directory right under it that the walk read. */
  readonly topListings: ReadonlyMap<string, ReadonlyMap<string, Dirent>>;
}

/**
 * Walks the workspace breadth-first without following symlinks and records every path on `list` or in `excluded`
 * (absolute paths), with a signature of its state, without descending into them. Bounded by `maxDirs`.
 */
export function scanBlocked(workspaceRoot: string, list: readonly BlockedEntry[], excluded: readonly string[], maxDirs = DEFAULT_SCAN_MAX_DIRS): BlockedScan {
  const paths = new Map<string, string>();
  const topListings = new Map<string, Map<string, Dirent>>();
  const excludedSet = new Set(excluded);
  const blockedEntryOf = blockedEntryMatcher(workspaceRoot, posix, list);
  const rootIsHosts = rootRepositoryIsHosts(list);
  for (const path of excluded) {
    const stat = lstatOrUndefined(path);
    if (stat) paths.set(path, signatureOf(path, stat));
  }
  const queue = [workspaceRoot];
  let visited = 0;
  while (queue.length > 0) {
    if (visited >= maxDirs) return { paths, truncated: true, topListings };
    const dir = queue.shift() as string;
    visited += 1;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable meanwhile: nothing under it to record
    }
    if (dir === workspaceRoot || posix.dirname(dir) === workspaceRoot) topListings.set(dir, new Map(entries.map((e) => [e.name, e])));
    // The entry's type comes with the directory read (never following a symlink, as lstat); only a blocked path
    // needs the lstat its signature is made of.
    // An embedded bare repository (the same rule as the file tools': a .git itself and the repositories under a
    // .git/modules or .git/worktrees are the name-based list's, the workspace root the host's unless the list says
    // otherwise): its code entries are blocked paths too.
    // (Most directories have no HEAD: they cost one pass over their entries, nothing allocated.)
    const bare = entries.some((e) => e.name === 'HEAD') && layoutRuleApplies(dir, workspaceRoot, rootIsHosts) && isBareRepositoryLayout(entries.map((e) => e.name));
    for (const entry of entries) {
      const path = posix.join(dir, entry.name);
      if (excludedSet.has(path)) continue;
      if ((bare && isBareRepositoryCodeEntry(entry.name)) || blockedEntryOf(path, entry.isDirectory() ? 'directory' : 'other') !== undefined) {
        const stat = lstatOrUndefined(path);
        if (stat !== undefined) paths.set(path, signatureOf(path, stat));
      } else if (entry.isDirectory()) queue.push(path);
    }
  }
  return { paths, truncated: false, topListings };
}

/** Whether the embedded-bare-repository rule looks at `dir` (see layoutRuleSkips). */
function layoutRuleApplies(dir: string, workspaceRoot: string, rootIsHosts: boolean): boolean {
  return dir === workspaceRoot ? !rootIsHosts : !layoutRuleSkips(posix.relative(workspaceRoot, dir).split('/'));
}

/** Removes what a command created at a blocked path; returns whether it is gone. */
export function removeCreated(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true });
    return lstatOrUndefined(path) === undefined;
  } catch {
    return false;
  }
}

/**
 * Removes a mount-point stub the sandbox made, only while it is still an empty directory, on libuv's thread pool:
 * an rmdir of a directory that was a mount point takes milliseconds, and there is one stub per missing top-level
 * blocked name.
 */
export async function removeStubLater(path: string): Promise<void> {
  try {
    await rmdir(path);
  } catch {
    // not empty (then the post-check reported it) or already gone
  }
}

/**
 * `<inode>#<state>`: the inode tells a replaced path from a changed one. The state has the change time as well as
 * the modification time: a command can set an mtime back (utimes), never a ctime.
 */
function signatureOf(path: string, stat: BigIntStats): string {
  return `${stat.ino}#${stateOf(path, stat)}`;
}

function stateOf(path: string, stat: BigIntStats): string {
  if (!stat.isDirectory()) return `${kindOf(stat)}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.mode}`;
  const identity = `${stat.dev}:${stat.ino}:${stat.ctimeNs}`;
  if (readEmpty.get(path) === identity) return EMPTY_DIR_SIGNATURE;
  // Taken before the read: a change after it carries a ctime of at least this, less the clock's granularity.
  const readAtNs = BigInt(Date.now()) * 1_000_000n;
  const { state, readIt } = listedStateOf(path);
  if (readIt && state === EMPTY_DIR_SIGNATURE && mayTrustUnchangedCtime(stat.ctimeNs, readAtNs, fsTypeOf(path, stat.dev))) {
    if (readEmpty.size >= READ_EMPTY_MAX) readEmpty.clear();
    readEmpty.set(path, identity);
  }
  return state;
}

/**
 * A directory's state from reading it: every entry below it with its own state, sorted; `readIt` is false when the
 * directory itself could not be read (then its state says empty, but nothing is remembered of it).
 */
function listedStateOf(path: string): { state: string; readIt: boolean } {
  const parts: string[] = [];
  const stack = [''];
  let readIt = false;
  while (stack.length > 0 && parts.length < SIGNATURE_MAX_ENTRIES) {
    const relative = stack.pop() as string;
    let names: string[];
    try {
      names = readdirSync(posix.join(path, relative)).sort();
    } catch {
      continue;
    }
    if (relative === '') readIt = true;
    for (const name of names) {
      const child = posix.join(relative, name);
      const childStat = lstatOrUndefined(posix.join(path, child));
      if (childStat === undefined) continue;
      parts.push(`${child}=${childStat.isDirectory() ? 'd' : `${kindOf(childStat)}:${childStat.size}:${childStat.mtimeNs}:${childStat.ctimeNs}:${childStat.ino}`}:${childStat.mode}`);
      if (childStat.isDirectory()) stack.push(child);
    }
  }
  if (parts.length === 0) return { state: EMPTY_DIR_SIGNATURE, readIt };
  return { state: parts.length >= SIGNATURE_MAX_ENTRIES ? `big:${parts.length}` : parts.join('|'), readIt };
}

function kindOf(stat: BigIntStats): string {
  return stat.isSymbolicLink() ? 'l' : stat.isFile() ? 'f' : 'o';
}

function fsTypeOf(path: string, device: bigint): number {
  let type = fsTypeByDevice.get(device);
  if (type === undefined) {
    try {
      type = statfsSync(path).type;
    } catch {
      return -1; // unknown: not trusted, and asked again next time
    }
    fsTypeByDevice.set(device, type);
  }
  return type;
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}
