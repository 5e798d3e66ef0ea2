import type { BlockedEntry } from './blocklist.js';

/** The filesystem calls the guard needs, injected so the guard stays pure and testable with a fake. */
export interface GuardFs {
  /** The entry's kind without following a final symlink; `undefined` when it does not exist (ENOENT, ENOTDIR). */
  lstat(p: string): { isSymbolicLink(): boolean; isDirectory(): boolean } | undefined;
  /** The raw target text of a symlink. */
  readlink(p: string): string;
}

/** What a session may touch on disk. Roots are canonical absolute paths (the runtime realpaths them). */
export interface PathScope {
  /** The one writable root; relative inputs resolve against it. */
  workspaceRoot: string;
  /** Extra roots that may be read but never written. */
  readRoots: readonly string[];
  /** Whether reads and writes may leave the workspace (the blocklist still applies). */
  allowOutsideWorkspace: boolean;
  /** Workspace-relative paths refused for writing, with everything under them (e.g. `['.git']`). */
  excludedPaths: readonly string[];
  /** Entries never written (see `DEFAULT_BLOCKLIST`). @default DEFAULT_BLOCKLIST */
  blocklist?: readonly BlockedEntry[];
}

/** An absolute, canonical path that passed the guard; only the guard creates these. */
export type CheckedPath = string & { readonly __brand: 'CheckedPath' };
