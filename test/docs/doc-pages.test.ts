import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { allSamples, docPages, readPage, REPO } from './doc-pages.js';

const MAX_README_LINES = 250;
const MAX_TABLE_ROW = 300;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(text).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function withoutFences(text: string): string {
  return text.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
}

/** Relative link targets of a page, outside code blocks and inline code. */
function linksOf(text: string): string[] {
  const prose = withoutFences(text).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe('the README and docs/ pages', () => {
  it(`keep the README at most ${MAX_README_LINES} lines, with the two quick-start commands`, () => {
    const readme = readPage('README.md');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
    const quickStart = /## Quick start\n+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(quickStart).toBe('npm install && npm start\nnpm test\n');
  });

  it.each(docPages())(`%s has no table row over ${MAX_TABLE_ROW} characters`, (page) => {
    const long = withoutFences(readPage(page))
      .split('\n')
      .filter((line) => line.startsWith('|') && line.length > MAX_TABLE_ROW)
      .map((line) => `${line.length}: ${line.slice(0, 80)}...`);
    expect(long).toEqual([]);
  });

  it.each(docPages())('%s links only to files and anchors that exist', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(readPage(page))) {
      const [target = '', anchor] = link.split('#');
      const file = target === '' ? path.join(REPO, page) : path.resolve(path.dirname(path.join(REPO, page)), target);
      if (!fs.existsSync(file)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(fs.readFileSync(file, 'utf8')).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('list every docs page in the README', () => {
    const linked = new Set(linksOf(readPage('README.md')).map((link) => link.split('#')[0]));
    expect(docPages().filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });

  it('give every error code one row in docs/errors.md, and no row to a code that does not exist', () => {
    const rows = readPage('docs/errors.md')
      .split('\n')
      .flatMap((line) => /^\| `([A-Z_]+)` \| \S/.exec(line)?.[1] ?? []);
    expect([...rows].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('mark every sample in a way the docs test understands', () => {
    expect(() => allSamples()).not.toThrow();
  });
});
