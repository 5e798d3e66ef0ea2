import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { direntKind, nodeIo, type EntryKind, type WalkEntry, type WalkIo } from './walk-io.js';

let throughDescriptor: boolean | undefined;

// Asked on first use, not at import, as in runtime/fs/verified-dir.ts (workers/ does not import runtime/).
function isThroughDescriptor(): boolean {
  if (throughDescriptor === undefined) {
    try {
      throughDescriptor = process.platform === 'linux' && existsSync('/proc/self/fd');
    } catch {
      throughDescriptor = false;
    }
  }
  return throughDescriptor;
}

/** A directory opened for the walk: its entries, and its files opened by name through it. */
export interface WalkDir {
  /** The canonical path it had when it was opened. */
  readonly real: string;
  /** Sorted by name (code unit); an entry the listing gave no type for is typed by lstat. */
  readonly entries: readonly WalkEntry[];
  /** Opens the file entry `name` of this very directory for reading, without following a link: a descriptor, or -1. */
  openFile(name: string): number;
  close(): void;
}

/**
 * Opens the directory whose real path is `real` for reading its entries. On Linux it is opened without following a
 * final link and used only when its descriptor's real path is still `real` (a component swapped for a link to the
 * outside after the walk listed it is skipped, not walked); its entries are read, and its files opened, through that
 * descriptor. Elsewhere the path is read by name. Returns undefined when it cannot be read.
 */
export function openWalkDir(real: string, io: WalkIo): WalkDir | undefined {
  if (!isThroughDescriptor()) return openPathDir(real);
  const fd = io.openDir(real);
  if (fd < 0) return undefined;
  const entries = isStillAt(fd, real) ? io.readEntries(fd) : undefined;
  if (entries === undefined) {
    io.close(fd);
    return undefined;
  }
  return { real, entries: typed(entries, `/proc/self/fd/${fd}`), openFile: (name) => io.openFileAt(fd, name), close: () => io.close(fd) };
}

/**
 * Opens the file whose real path is `real` (a link's target, or a single-file walk root) for reading, without following
 * a final link, and only when the descriptor's real path is still `real`: a descriptor, or -1.
 */
export function openVerifiedFile(real: string, io: WalkIo): number {
  const fd = io.openFile(real);
  if (fd < 0 || isStillAt(fd, real)) return fd;
  io.close(fd);
  return -1;
}

/** Whether an open descriptor's file is still at `real` (always true off Linux, where it cannot be told). */
function isStillAt(fd: number, real: string): boolean {
  if (!isThroughDescriptor()) return true;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === real;
  } catch {
    return false;
  }
}

function openPathDir(real: string): WalkDir | undefined {
  let entries: WalkEntry[];
  try {
    entries = readdirSync(real, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: direntKind(entry) }));
  } catch {
    return undefined;
  }
  return { real, entries: typed(entries, real), openFile: (name) => nodeIo.openFile(join(real, name)), close: () => {} };
}

// Sorts the entries by name (code unit) and types those the listing left untyped: some filesystems report no type,
// and lstat (never stat: a link must stay a link) of `<dirPath>/<name>` tells.
function typed(entries: WalkEntry[], dirPath: string): WalkEntry[] {
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as WalkEntry;
    if (entry.kind === 'unknown') entries[i] = { name: entry.name, kind: lstatKind(`${dirPath}/${entry.name}`) };
  }
  return entries;
}

function lstatKind(fullPath: string): EntryKind {
  try {
    const stats = lstatSync(fullPath);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'dir' : stats.isSymbolicLink() ? 'link' : 'other';
  } catch {
    return 'other';
  }
}
