import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real temporary directory tree for a test, removed by `cleanup`. */
export interface TempTree {
  /** Canonical absolute path of the tree's root. */
  readonly root: string;
  /** Absolute path of a relative one inside the tree. */
  at(relative: string): string;
  /** Writes files (creating directories), keyed by relative path. */
  write(files: Record<string, string>): void;
  cleanup(): void;
}

/** Creates a temporary tree with the given files. */
export function makeTempTree(prefix: string, files: Record<string, string> = {}): TempTree {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`)));
  const tree: TempTree = {
    root,
    at: (relative) => path.join(root, relative),
    write: (entries) => {
      for (const [relative, content] of Object.entries(entries)) {
        fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
        fs.writeFileSync(path.join(root, relative), content);
      }
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  tree.write(files);
  return tree;
}

/** The text of a tool result's first content block. */
export function textOf(result: { content: { text: string }[] }): string {
  return result.content.map((c) => c.text).join('\n');
}
