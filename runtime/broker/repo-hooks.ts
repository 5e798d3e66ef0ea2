import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configuredHooksEntries, parseCoreValue, parseHooksPath } from '../../src/path-guard/hooks-path.js';
import type { BlockedEntry } from '../../src/path-guard/index.js';

const MAX_CONFIG_BYTES = 1 << 20;
const MAX_LEVELS = 128;
/** Directories of `.git/modules` read at most for submodule repositories (names may hold slashes, modules nest). */
const MAX_MODULE_DIRS = 256;

/**
 * The blocklist entries for the hooks directory git uses in the repository holding `workspaceRoot`, read when a
 * session opens: `core.hooksPath` from the system, global, repository and worktree config (the last one set wins,
 * as in git). `.git/hooks` itself is on the default list; this covers repositories that point hooks elsewhere
 * (`.githooks`, husky), and each submodule repository under its `.git/modules` whose own config sets one (relative
 * to the submodule's work tree, its `core.worktree`). A missing or unreadable file counts as unset.
 */
export function repositoryHooksEntries(workspaceRoot: string, home: string = os.homedir()): BlockedEntry[] {
  const repo = findRepository(workspaceRoot);
  const xdg = process.env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const files = ['/etc/gitconfig', path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig'), ...(repo?.configFiles ?? [])];
  let hooksPath: string | undefined;
  for (const file of files) hooksPath = readCoreSettings(file)?.hooksPath ?? hooksPath;
  const entries = hooksPath === undefined ? [] : configuredHooksEntries(hooksPath, repo?.top ?? workspaceRoot, workspaceRoot, home, path);
  // A submodule that sets none inherits the system or global one, whose entry (matched at any depth) covers it too.
  for (const gitDir of submoduleGitDirs(repo?.moduleRoots ?? [])) {
    const config = readCoreSettings(path.join(gitDir, 'config'));
    const own = readCoreSettings(path.join(gitDir, 'config.worktree'))?.hooksPath ?? config?.hooksPath;
    if (own === undefined) continue;
    const worktree = config?.worktree;
    entries.push(...configuredHooksEntries(own, worktree === undefined ? workspaceRoot : path.resolve(gitDir, worktree), workspaceRoot, home, path));
  }
  return entries;
}

interface Repository {
  /** The top of the working tree. */
  top: string;
  /** The repository's config files in git's order: the common config, then the worktree's own. */
  configFiles: string[];
  /**
   * Where its submodule repositories live: `modules/` of the git directory shared by its worktrees, of this
   * worktree's own git directory (a linked worktree's submodules), and of every other worktree's.
   */
  moduleRoots: string[];
}

/** The `modules/` directories of a repository whose shared git directory is `commonDir` and own is `gitDir`. */
function moduleRootsOf(commonDir: string, gitDir: string): string[] {
  let worktrees: string[] = [];
  try {
    worktrees = fs.readdirSync(path.join(commonDir, 'worktrees')).map((name) => path.join(commonDir, 'worktrees', name));
  } catch {
    // no linked worktrees
  }
  return [...new Set([commonDir, gitDir, ...worktrees])].map((dir) => path.join(dir, 'modules'));
}

/**
 * The submodule repositories under `roots` (a directory holding `HEAD` and `config`), their own submodules under
 * their `modules/` too, breadth-first, bounded by MAX_MODULE_DIRS directories read.
 */
function submoduleGitDirs(roots: readonly string[]): string[] {
  const found: string[] = [];
  const queue = [...roots];
  for (let read = 0; queue.length > 0 && read < MAX_MODULE_DIRS; read += 1) {
    const dir = queue.shift()!;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const isRepository = names.some((e) => e.name === 'HEAD') && names.some((e) => e.name === 'config' && e.isFile());
    if (isRepository) found.push(dir);
    const below = isRepository ? names.filter((e) => e.name === 'modules') : names;
    for (const entry of below) if (entry.isDirectory()) queue.push(path.join(dir, entry.name));
  }
  return found;
}

function findRepository(start: string): Repository | undefined {
  let dir = start;
  for (let level = 0; level < MAX_LEVELS; level += 1) {
    const dotGit = path.join(dir, '.git');
    const stat = fs.statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { top: dir, moduleRoots: moduleRootsOf(dotGit, dotGit), configFiles: [path.join(dotGit, 'config'), path.join(dotGit, 'config.worktree')] };
    if (stat?.isFile()) return linkedRepository(dir, dotGit);
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

// A worktree or submodule: `.git` is a file naming the git directory; a worktree's shares its config (commondir).
function linkedRepository(top: string, dotGitFile: string): Repository {
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGitFile) ?? '')?.[1];
  if (gitdir === undefined) return { top, moduleRoots: [], configFiles: [] };
  const gitDir = path.resolve(top, gitdir);
  const common = readSmall(path.join(gitDir, 'commondir'))?.trim();
  const commonDir = common ? path.resolve(gitDir, common) : gitDir;
  return { top, moduleRoots: moduleRootsOf(commonDir, gitDir), configFiles: [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')] };
}

// Every session opening reads the same few config files: each is parsed again only when its inode, size, mtime or
// ctime changed (ctime, which no user can set back, catches a rewrite whose mtime was restored with touch -r) (a stat instead of a read and a parse; the read and parse were most of the ~100 us this took per session).
interface CoreSettings {
  readonly hooksPath: string | undefined;
  /** `core.worktree`: a submodule repository's work tree, relative to its git directory. */
  readonly worktree: string | undefined;
}
const parsed = new Map<string, { version: string; settings: CoreSettings | undefined }>();
const MAX_CACHED = 256;

/** The core settings a config file gives; undefined when it is missing, unreadable or too big. */
function readCoreSettings(file: string): CoreSettings | undefined {
  const stat = statFile(file);
  if (stat === undefined) return undefined;
  const version = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  const cached = parsed.get(file);
  if (cached?.version === version) return cached.settings;
  const text = readText(file);
  const settings = text === undefined ? undefined : { hooksPath: parseHooksPath(text), worktree: parseCoreValue(text, 'worktree') };
  if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string);
  parsed.set(file, { version, settings });
  return settings;
}

function statFile(file: string): fs.Stats | undefined {
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat === undefined || !stat.isFile() || stat.size > MAX_CONFIG_BYTES ? undefined : stat;
  } catch {
    return undefined;
  }
}

function readSmall(file: string): string | undefined {
  return statFile(file) === undefined ? undefined : readText(file);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
