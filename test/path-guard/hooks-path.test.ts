import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredHooksEntries, parseHooksPath } from '../../src/path-guard/hooks-path.js';
import { findBlockedEntry } from '../../src/path-guard/index.js';

// [config text, the core.hooksPath git reads from it]
const CONFIGS: readonly (readonly [string, string | undefined])[] = [
  ['[core]\n\thooksPath = .githooks\n', '.githooks'],
  ['[CORE]\n\tHOOKSPATH=.husky/_\n', '.husky/_'],
  ['[core]\n\thooksPath = "tools/git hooks" ; a comment\n', 'tools/git hooks'],
  ['[core]\n\thooksPath = a\n\thooksPath = b\n', 'b'],
  ['[core]\n\thooksPath = a # trailing\n', 'a'],
  ['[core] hooksPath = inline\n', 'inline'],
  ['[core "sub"]\n\thooksPath = not-core\n', undefined],
  ['[corex]\n\thooksPath = other\n', undefined],
  ['[user]\n\thooksPath = nope\n[core]\n\tbare = false\n', undefined],
  ['[core]\n\thooksPath = "we\\"ird"\n', 'we"ird'],
  ['[core]\n\thooksPath = ~/hooks\n', '~/hooks'],
  ['# [core] hooksPath = commented\n', undefined],
  ['[core]\n\thooksPath = con\\\ntinued\n', 'continued'],
  ['', undefined],
  // Red-team rows: git never continues a comment, `\\` at a line's end is an escaped backslash, only spaces and
  // tabs are trimmed, a NUL ends the value, spaces inside quotes stay.
  ['[core]\n# note \\\nhooksPath = evil\n', 'evil'],
  ['[core]\n; note \\\nhooksPath = evil\n', 'evil'],
  ['[core]\nhooksPath = a\\\\\n[x]\ny = 1\n', 'a\\'],
  ['[core]\nhooksPath =\u00a0evil\n', '\u00a0evil'],
  ['[core]\nhooksPath = evil\u000b\n', 'evil\u000b'],
  ['[core]\nhooksPath = evil\u0000x\n', 'evil'],
  ['[core]\nhooksPath = "a " \n', 'a '],
  ['[core]\r\n\thooksPath = crlf\r\n', 'crlf'],
];

describe('parseHooksPath', () => {
  it.each(CONFIGS)('%j -> %s', (text, expected) => {
    expect(parseHooksPath(text)).toBe(expected);
  });
});

// Real git is the oracle: what `git config --get core.hooksPath` prints for the same file.
describe('parseHooksPath agrees with git', () => {
  let dir: string;
  const gitRead = (text: string): string | undefined => {
    const file = path.join(dir, 'config');
    writeFileSync(file, text);
    try {
      return execFileSync('git', ['config', '--file', file, '--get', 'core.hooksPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).replace(/\n$/, '') || undefined;
    } catch (error) {
      if ((error as { status?: number }).status === 1) return undefined; // unset
      return 'GIT-REFUSED';
    }
  };
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tw-hookspath-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(CONFIGS)('%j', (text) => {
    expect(parseHooksPath(text)).toBe(gitRead(text));
  });

  it('on generated configs (whenever git accepts the file, we read the same value)', () => {
    const name = fc.constantFrom('hooksPath', 'hookspath', 'HooksPath', 'bare', 'editor');
    const section = fc.constantFrom('[core]', '[Core]', '[core "x"]', '[user]', '[core]  # c');
    const value = fc.oneof(fc.constantFrom('.githooks', '"a b"', 'x ; c', 'y # c', '"q\\"q"', 'tail  ', '"in;side"'), fc.stringMatching(/^[a-z./_-]{1,8}$/));
    const line = fc.oneof(section, fc.tuple(name, value).map(([n, v]) => `\t${n} = ${v}`), fc.constantFrom('; comment', '', '\t# x'));
    let set = 0;
    fc.assert(
      fc.property(fc.tuple(fc.boolean(), fc.array(line, { minLength: 1, maxLength: 6 })), ([opensCore, rest]) => {
        const lines = opensCore ? ['[core]', ...rest] : rest;
        const text = `${lines.join('\n')}\n`;
        const git = gitRead(text);
        if (git === 'GIT-REFUSED') return;
        if (git !== undefined) set += 1;
        expect(parseHooksPath(text), text).toBe(git);
      }),
      { numRuns: 200, seed: 7 },
    );
    // The generator must reach configs that set the value, not only ones git rejects or leaves unset.
    expect(set).toBeGreaterThan(40);
  });
});

describe('configuredHooksEntries', () => {
  const blocked = (hooksPath: string, p: string, repo = '/ws', home = '/home/u'): boolean =>
    findBlockedEntry(p, '/ws', path.posix, configuredHooksEntries(hooksPath, repo, '/ws', home, path.posix)) !== undefined;

  // [hooksPath, repository top, path written, blocked?]: each refusal beside a near miss.
  it.each([
    ['.githooks', '/ws', '/ws/.githooks/pre-commit', true],
    ['.githooks', '/ws', '/ws/.githooks-notes/x', false],
    ['./.githooks/', '/ws', '/ws/.githooks/x', true],
    ['tools/hooks', '/ws', '/ws/tools/hooks/pre-push', true],
    ['tools/hooks', '/ws', '/ws/tools/other', false],
    ['/ws/abs-hooks', '/ws', '/ws/abs-hooks/x', true],
    ['../hooks', '/ws/sub', '/ws/hooks/x', true],
    ['hooks', '/repo', '/repo/hooks/x', true],
    ['~/hooks', '/ws', '/home/u/hooks/x', true],
    ['.', '/ws', '/ws/pre-commit', true],
    ['.', '/ws', '/ws/README.md', false],
  ] as const)('%s in %s: %s blocked %s', (hooksPath, repo, p, expected) => {
    expect(blocked(hooksPath, p, repo)).toBe(expected);
  });
});
