import fs from 'node:fs';
import path from 'node:path';

/** A small workspace for call benchmarks: a 4 KiB and a 64 KiB file, a few files to grep, a directory for writes. */
export interface BenchWorkspace {
  /** Canonical root. */
  root: string;
  /** Workspace-relative path of the 4 KiB text file. */
  file4k: string;
  /** Workspace-relative path of the 64 KiB text file (outside the grep directory). */
  file64k: string;
  /** Workspace-relative directory of a few small text files (grep target). */
  grepDir: string;
  /** Workspace-relative directory sessions write into. */
  outDir: string;
}

const GREP_FILES = 20;

/** Creates the workspace under `parent` (idempotent). */
export function makeWorkspace(parent: string): BenchWorkspace {
  const root = fs.realpathSync.native(parent);
  const dir = path.join(root, 'ws');
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'out'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'big'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'a.txt'), textOfSize(4096, 1));
  fs.writeFileSync(path.join(dir, 'big', 'b.txt'), textOfSize(64 * 1024, 2));
  for (let i = 0; i < GREP_FILES; i += 1) {
    fs.writeFileSync(path.join(dir, 'src', `g${String(i).padStart(2, '0')}.txt`), textOfSize(2048, i + 2) + (i % 5 === 0 ? 'needle here\n' : ''));
  }
  return { root: dir, file4k: 'src/a.txt', file64k: 'big/b.txt', grepDir: 'src', outDir: 'out' };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'session', 'worker', 'broker', 'token', 'path', 'grep', 'tree', 'value'];

/**
 * Deterministic text lines of exactly `bytes` bytes (ASCII), seeded so files differ.
 * @example textOfSize(4096, 1).length // 4096
 */
export function textOfSize(bytes: number, seed: number): string {
  let state = seed * 2654435761 >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  let text = '';
  let line = 1;
  while (text.length < bytes) {
    const words = Array.from({ length: 6 + (next() % 6) }, () => WORDS[next() % WORDS.length]);
    text += `${line} ${words.join(' ')}\n`;
    line += 1;
  }
  return `${text.slice(0, bytes - 1)}\n`;
}
