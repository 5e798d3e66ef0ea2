import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A tree entry: file content, `{ link }` for a symlink (target as written), or `{ dir: true }`. */
export type TreeEntry = string | { link: string } | { dir: true };

/** Creates a canonical temp dir holding `entries` (paths relative to it, parents made as needed). */
export function createTempTree(entries: Record<string, TreeEntry>): string {
  const base = realpathSync.native(mkdtempSync(path.join(os.tmpdir(), 'tw-guard-')));
  addEntries(base, entries);
  return base;
}

/** Adds entries under an existing base (for links whose target must be absolute). */
export function addEntries(base: string, entries: Record<string, TreeEntry>): void {
  for (const [relative, entry] of Object.entries(entries)) {
    const full = path.join(base, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    if (typeof entry === 'string') writeFileSync(full, entry);
    else if ('link' in entry) symlinkSync(entry.link, full);
    else mkdirSync(full, { recursive: true });
  }
}

/** Removes a tree made by {@link createTempTree}. */
export function removeTempTree(base: string): void {
  rmSync(base, { recursive: true, force: true });
}
