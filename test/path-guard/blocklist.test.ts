import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKLIST, findBlockedEntry, type BlockedEntry } from '../../src/path-guard/index.js';

const ROOT = '/ws';

// [path, blocked?] — each refusal has a near miss beside it that must stay writable.
const CASES: readonly (readonly [string, boolean])[] = [
  ['/ws/.ssh', true], ['/ws/.ssh/authorized_keys', true], ['/ws/a/.ssh/id', true], ['/ws/.ssh-backup/id', false],
  ['/ws/.aws/credentials', true], ['/ws/.awsome', false],
  ['/ws/.git/hooks/pre-commit', true], ['/ws/sub/.git/hooks', true], ['/ws/.git/hooks-notes', false], ['/ws/hooks/x', false],
  ['/ws/.git/config', false], ['/ws/sub/.git/config', true], ['/ws/a/b/.git/config', true], ['/ws/.git/configs', false],
  // Nested repositories: everything else git takes config or hooks from (commondir points at another directory).
  ['/ws/sub/.git/commondir', true], ['/ws/sub/.git/config.worktree', true], ['/ws/sub/.git/worktrees/w/commondir', true],
  ['/ws/sub/.git/modules/m/hooks/pre-commit', true], ['/ws/sub/.git/modules/m/config', true],
  ['/ws/sub/.git/HEAD', false], ['/ws/sub/.git/objects/ab/cd', false], ['/ws/sub/.git/refs/heads/main', false],
  ['/ws/.git/commondir', false], ['/ws/.git/worktrees/w/gitdir', false],
  // The top repository's submodule repositories (a name may hold slashes; a submodule's submodules nest again): their
  // hooks are blocked like .git/hooks, their config is the host's like the top .git/config.
  ['/ws/.git/modules/m/hooks/post-checkout', true], ['/ws/.git/modules/a/b/hooks', true], ['/ws/.git/modules/m/modules/n/hooks/x', true],
  ['/ws/.GIT/Modules/M/HOOKS/x', true], ['/ws/sub/.git/modules/a/b/hooks/x', true],
  ['/ws/.git/modules/m/config', false], ['/ws/.git/modules/m/objects/ab', false], ['/ws/.git/modules/m/hooks-notes', false],
  ['/ws/lib/modules/m/hooks/x', false], ['/ws/.git/modulesx/m/hooks', false], ['/ws/.git/modules', false],
  ['/ws/.bashrc', true], ['/ws/home/.bash_profile', true], ['/ws/.profile', true], ['/ws/.zshrc', true], ['/ws/.zprofile', true],
  ['/ws/.zshenv', true], ['/ws/.bashrc.d/x', false], ['/ws/bashrc', false], ['/ws/.bashrc.bak', false], ['/ws/profile', false],
  ['/ws/.gitconfig', true], ['/ws/x/.gitconfig', true], ['/ws/.gitignore', false], ['/ws/.gitattributes', false],
  ['/ws/.mcp.json', true], ['/ws/.mcp.json.example', false], ['/ws/.claude/settings.json', true], ['/ws/claude/x', false],
  ['/ws/.vscode/tasks.json', true], ['/ws/.idea/workspace.xml', true], ['/ws/.envrc', true], ['/ws/.env', false],
  ['/ws/.SSH/x', true], ['/ws/.VsCode/settings.json', true], ['/ws/Sub/.GIT/CONFIG', true],
  // Outside the workspace no entry is "directly in the root", so a .git/config there counts as nested.
  ['/elsewhere/.git/config', true], ['/home/u/.bashrc', true],
  ['/ws/src/index.ts', false], ['/ws/.github/workflows/ci.yml', false],
];

// A .git file or symlink (gitdir: elsewhere) is blocked where its kind is known: a walk's entry, a file tool's file.
const GIT_LINK_CASES: readonly (readonly [string, 'directory' | 'other' | 'unknown', boolean])[] = [
  ['/ws/sub/.git', 'other', true], ['/ws/.git', 'other', true], ['/ws/a/b/.GIT', 'other', true],
  ['/ws/sub/.git', 'directory', false], ['/ws/.git', 'directory', false],
  // A shell command's target: `mkdir x/.git` and `> x/.git` look alike; the sandbox's check after the command decides.
  ['/ws/sub/.git', 'unknown', false],
  ['/ws/sub/.git/objects/ab', 'other', false], ['/ws/.git/config', 'other', false], ['/ws/.gitx', 'other', false], ['/ws/x.git', 'other', false],
];

describe('DEFAULT_BLOCKLIST', () => {
  it.each(GIT_LINK_CASES)('%s as %s blocked: %s', (p, kind, blocked) => {
    expect(findBlockedEntry(p, ROOT, path.posix, DEFAULT_BLOCKLIST, kind) !== undefined).toBe(blocked);
  });

  it.each(CASES)('%s blocked: %s', (p, blocked) => {
    expect(findBlockedEntry(p, ROOT, path.posix) !== undefined).toBe(blocked);
  });

  it('says why for every entry', () => {
    for (const entry of DEFAULT_BLOCKLIST) expect(entry.why.length).toBeGreaterThan(5);
  });

  it('matches win32 paths case-insensitively', () => {
    expect(findBlockedEntry('C:\\ws\\sub\\.git\\config', 'C:\\ws', path.win32)).toBeDefined();
    expect(findBlockedEntry('C:\\ws\\.git\\config', 'C:\\ws', path.win32)).toBeUndefined();
  });
});

// Differential: an entry with `**` matches exactly where a regular expression written from its definition does (the
// entry's segments, `**` as zero or more whole segments, at any depth, with anything below).
describe('blocklist entries with **', () => {
  const segment = fc.constantFrom('.git', 'modules', 'hooks', 'm', 'a', 'HOOKS', 'x');
  const pattern = fc.array(fc.constantFrom('.git', 'modules', 'hooks', 'm', '**'), { minLength: 1, maxLength: 4 }).filter((p) => p.some((s) => s !== '**'));
  const regexOf = (segments: readonly string[]): RegExp => {
    const body = segments.map((s) => (s === '**' ? '(?:[^/]+/)*' : `${s.replace(/\./g, '\\.')}/`)).join('');
    return new RegExp(`^(?:[^/]+/)*${body}`, 'i');
  };
  it('matches like the reference expression', () => {
    fc.assert(
      fc.property(pattern, fc.array(segment, { minLength: 1, maxLength: 6 }), (segments, parts) => {
        const entry: BlockedEntry = { segments, depth: 'any', why: 'test' };
        const blocked = findBlockedEntry(`/ws/${parts.join('/')}`, ROOT, path.posix, [entry]) !== undefined;
        return blocked === regexOf(segments).test(`${parts.join('/')}/`);
      }),
      { numRuns: 3000, seed: 20261203 },
    );
  });
});
