import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { textOfSize } from './workspace.js';

/** A generated tree of text files for the walk scenario. */
export interface GeneratedTree {
  /** Canonical root. */
  root: string;
  files: number;
  bytes: number;
  /** Lines matching {@link NEEDLE_PATTERN}. */
  needles: number;
  /** Files matching {@link MARKDOWN_GLOB}. */
  markdownFiles: number;
}

/** A regular expression valid for both JavaScript and `grep -E`, matching one line in every 20th file. */
export const NEEDLE_PATTERN = 'needle_[0-9]{4}';
/** A glob matching one file in ten. */
export const MARKDOWN_GLOB = '**/*.md';

const FILE_BYTES = 4000;
const FILES_PER_DIR = 10;
const DIRS_PER_GROUP = 10;
const FORMAT_VERSION = '1';

/**
 * Generates `files` text files of about 4 KB under the OS temp dir, in groups of directories, once: a later run
 * finds the tree complete (a marker file is written last) and reuses it.
 */
export function generateTree(files: number): GeneratedTree {
  const root = path.join(fs.realpathSync.native(os.tmpdir()), `toolwarden-bench-tree-${files}`);
  const marker = path.join(root, '.complete');
  const tree: GeneratedTree = { root, files, bytes: 0, needles: 0, markdownFiles: 0 };
  const complete = fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === FORMAT_VERSION;
  if (!complete) fs.rmSync(root, { recursive: true, force: true });
  for (let i = 0; i < files; i += 1) {
    const dir = path.join(root, `d${Math.floor(i / (FILES_PER_DIR * DIRS_PER_GROUP))}`, `e${Math.floor(i / FILES_PER_DIR) % DIRS_PER_GROUP}`);
    const markdown = i % 10 === 9;
    const needle = i % 20 === 0;
    const name = path.join(dir, `f${i}.${markdown ? 'md' : 'ts'}`);
    const body = textOfSize(FILE_BYTES, i + 7);
    const content = needle ? `${body}const needle_${String(i % 10_000).padStart(4, '0')} = true;\n` : body;
    if (!complete) {
      if (i % FILES_PER_DIR === 0) fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(name, content);
    }
    tree.bytes += content.length;
    tree.needles += needle ? 1 : 0;
    tree.markdownFiles += markdown ? 1 : 0;
  }
  if (!complete) fs.writeFileSync(marker, FORMAT_VERSION);
  return tree;
}
