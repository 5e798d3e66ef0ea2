import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A file's content, or a symlink (`{ link: target }`, the target written as given, relative or absolute). */
export type TreeEntry = string | Buffer | { readonly link: string };

/** A real temporary directory, canonical, removed by `remove()`. */
export interface TempTree {
  readonly root: string;
  readonly path: (relative: string) => string;
  readonly remove: () => void;
}

/** Creates `<tmp>/walk-*` and fills it: keys are `/`-separated relative paths, a key ending in `/` is an empty dir. */
export function createTempTree(entries: Readonly<Record<string, TreeEntry>>): TempTree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'walk-')));
  for (const [relative, entry] of Object.entries(entries)) {
    const full = join(root, relative);
    if (relative.endsWith('/')) {
      mkdirSync(full, { recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    if (typeof entry === 'object' && !Buffer.isBuffer(entry)) symlinkSync(entry.link, full);
    else writeFileSync(full, entry);
  }
  return { root, path: (relative) => join(root, relative), remove: () => rmSync(root, { recursive: true, force: true }) };
}
