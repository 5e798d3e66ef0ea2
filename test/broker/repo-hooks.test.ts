import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryHooksEntries } from '../../runtime/broker/repo-hooks.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The config files are read through a cache keyed by inode, size and mtime: a changed setting must be seen by the
// next session, however the file was rewritten (git renames a new file into place; an editor may rewrite in place).
describe('repositoryHooksEntries', () => {
  let repo: TempTree;
  let home: TempTree;
  beforeAll(() => {
    repo = makeTempTree('tw-repohooks');
    home = makeTempTree('tw-repohooks-home');
    execFileSync('git', ['init', '-q', repo.root]);
  });
  afterAll(() => {
    repo.cleanup();
    home.cleanup();
  });
  const segments = (): string[][] => repositoryHooksEntries(repo.root, home.root).map((e) => [...e.segments]);

  it('sees a hooksPath set, changed to a value of the same length, rewritten in place, and removed', () => {
    expect(segments()).toEqual([]);
    execFileSync('git', ['-C', repo.root, 'config', 'core.hooksPath', '.hooksA']);
    expect(segments()).toEqual([['.hooksA']]);
    execFileSync('git', ['-C', repo.root, 'config', 'core.hooksPath', '.hooksB']);
    expect(segments()).toEqual([['.hooksB']]);
    const config = repo.at('.git/config');
    const text = execFileSync('cat', [config], { encoding: 'utf8' });
    repo.write({ '.git/config': text.replace('.hooksB', '.hooksC') });
    expect(segments()).toEqual([['.hooksC']]);
    execFileSync('git', ['-C', repo.root, 'config', '--unset', 'core.hooksPath']);
    expect(segments()).toEqual([]);
  });

  it('reads the global config of the home it is given, and the repository overrides it', () => {
    home.write({ '.gitconfig': '[core]\n\thooksPath = .global-hooks\n' });
    expect(segments()).toEqual([['.global-hooks']]);
    execFileSync('git', ['-C', repo.root, 'config', 'core.hooksPath', '.local-hooks']);
    expect(segments()).toEqual([['.local-hooks']]);
  });
});
