import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/** One matching line, as toolwarden's grep reports it. */
export interface JsGrepMatch {
  path: string;
  line: number;
  text: string;
}

const IGNORED = new Set(['.git', 'node_modules']);

/**
 * The in-process baseline of grep: a synchronous walk, each file read whole, rejected by one regex pass when it has
 * no match, otherwise split into lines. Results sorted by path then line and capped like toolwarden's.
 */
export function grepInProcess(root: string, pattern: string, maxResults: number): JsGrepMatch[] {
  const whole = new RegExp(pattern, 'mu');
  const line = new RegExp(pattern, 'u');
  const matches: JsGrepMatch[] = [];
  for (const file of walkFiles(root)) {
    const content = fs.readFileSync(path.join(root, file), 'utf8');
    if (!whole.test(content)) continue;
    content.split('\n').forEach((text, index) => {
      if (line.test(text)) matches.push({ path: file, line: index + 1, text });
    });
  }
  matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  return matches.slice(0, maxResults);
}

/** The in-process baseline of glob: the same walk, paths matched with picomatch, sorted and capped. */
export function globInProcess(root: string, pattern: string, maxResults: number): string[] {
  const isMatch = picomatch(pattern, { dot: true });
  return walkFiles(root).filter((file) => isMatch(file)).sort().slice(0, maxResults);
}

/** Files under `root`, relative and `/`-separated, skipping .git and node_modules; links are not followed. */
function walkFiles(root: string): string[] {
  const files: string[] = [];
  const pending = [''];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (IGNORED.has(entry.name)) continue;
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) pending.push(relative);
      else if (entry.isFile()) files.push(relative);
    }
  }
  return files;
}
