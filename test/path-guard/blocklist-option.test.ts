import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKLIST, findBlockedEntry } from '../../src/path-guard/blocklist.js';
import { applyBlockedPathsOption, blockedEntryName } from '../../src/path-guard/blocklist-option.js';

const names = (list: readonly { segments: readonly string[] }[]) => list.map((e) => e.segments.join('/'));
const blocked = (list: Parameters<typeof findBlockedEntry>[3], p: string) => findBlockedEntry(p, '/ws', path.posix, list) !== undefined;

describe('the blockedPaths option', () => {
  it('relaxes the list by entry name: the host lets the model edit .vscode/', () => {
    const list = applyBlockedPathsOption(DEFAULT_BLOCKLIST, { remove: ['.vscode'] }, 'blockedPaths');
    expect(names(list)).not.toContain('.vscode');
    expect(blocked(list, '/ws/.vscode/settings.json')).toBe(false);
    expect(blocked(list, '/ws/.idea/workspace.xml')).toBe(true);
    expect(blocked(DEFAULT_BLOCKLIST, '/ws/.vscode/settings.json')).toBe(true);
  });

  it('removes every entry of a name, whatever its depth', () => {
    const list = applyBlockedPathsOption(DEFAULT_BLOCKLIST, { remove: ['.git/config'] }, 'blockedPaths');
    expect(blocked(list, '/ws/sub/.git/config')).toBe(false);
    expect(blocked(list, '/ws/sub/.git/hooks/pre-commit')).toBe(true);
  });

  it.each([
    ['.netrc', '/ws/.netrc', '/ws/netrc'],
    ['.netrc', '/ws/pkg/.NETRC', '/ws/pkg/.netrc.bak'],
    ['config/deploy', '/ws/app/config/deploy/prod.sh', '/ws/app/config/deployment'],
    ['config/**/secrets', '/ws/config/a/b/secrets/k', '/ws/config/a/secretsx'],
    ['config/**/secrets', '/ws/app/config/secrets', '/ws/secrets'],
  ])('extends the list: %s blocks %s (and everything under it) but not %s', (entry, hit, miss) => {
    const list = applyBlockedPathsOption(DEFAULT_BLOCKLIST, { add: [entry] }, 'blockedPaths');
    expect(blocked(list, hit)).toBe(true);
    expect(blocked(list, miss)).toBe(false);
    expect(list.length).toBe(DEFAULT_BLOCKLIST.length + 1);
  });

  it('does not add an entry twice', () => {
    expect(applyBlockedPathsOption(DEFAULT_BLOCKLIST, { add: ['.SSH'] }, 'blockedPaths')).toHaveLength(DEFAULT_BLOCKLIST.length);
  });

  it('keeps a whole-.git entry added beside the .git file entry, and removes each by its own name', () => {
    const added = applyBlockedPathsOption(DEFAULT_BLOCKLIST, { add: ['.git'] }, 'blockedPaths');
    expect(added).toHaveLength(DEFAULT_BLOCKLIST.length + 1);
    const lifted = applyBlockedPathsOption(DEFAULT_BLOCKLIST, { remove: ['.git (file or symlink)'] }, 'blockedPaths');
    expect(lifted.some((e) => e.only === 'non-directory')).toBe(false);
    expect(lifted).toHaveLength(DEFAULT_BLOCKLIST.length - 1);
  });

  it('names every default entry', () => {
    expect(DEFAULT_BLOCKLIST.map(blockedEntryName)).toEqual(expect.arrayContaining(['.ssh', '.aws', '.git/hooks', '.git/config', '.bashrc', '.zshenv', '.gitconfig', '.mcp.json', '.claude', '.vscode', '.idea', '.envrc']));
  });

  it.each([
    ['an unknown entry name, with a did you mean', { remove: ['vscode'] }, /blockedPaths.remove names 'vscode', which is not on the blocklist; did you mean '.vscode'\?/],
    ['an unknown key', { allow: ['.vscode'] }, /blockedPaths has unknown key 'allow'/],
    ['__proto__', JSON.parse('{"__proto__": []}'), /unknown key '__proto__'/],
    ['a list that is not an array', { add: '.npmrc' }, /blockedPaths.add must be an array/],
    ['an empty name', { add: [''] }, /blockedPaths.add must be an array of non-empty strings/],
    ['an absolute path', { add: ['/etc/passwd'] }, /blockedPaths.add\[0\] '\/etc\/passwd' must be a relative name/],
    ['a climbing path', { add: ['../x'] }, /blockedPaths.add\[0\]/],
    ['an empty segment', { add: ['a//b'] }, /blockedPaths.add\[0\]/],
    ['not an object', ['.vscode'], /blockedPaths must be \{ add\?/],
  ])('refuses %s with INVALID_OPTIONS', (_name, option, message) => {
    expect(() => applyBlockedPathsOption(DEFAULT_BLOCKLIST, option, 'blockedPaths')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(message) }));
  });
});
