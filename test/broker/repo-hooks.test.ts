import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryHooksEntries } from '../../runtime/broker/repo-hooks.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { makeCapability } from '../helpers/capability.js';
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

// A submodule's repository lives in the superproject's .git/modules/<name>, whose config (the host's, like the top
// .git/config) may name a hooks directory of its own: git runs the hooks there when it works in the submodule.
describe('repositoryHooksEntries and submodules', () => {
  let top: TempTree;
  let upstream: TempTree;
  let home: TempTree;
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'protocol.file.allow=always', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', env: { ...process.env, HOME: home.root, GIT_CONFIG_NOSYSTEM: '1' } });
  beforeAll(() => {
    home = makeTempTree('tw-subhooks-home');
    upstream = makeTempTree('tw-subhooks-up', { 'a.txt': 'a\n' });
    top = makeTempTree('tw-subhooks-top', { 'README': 'x\n' });
    git(upstream.root, 'init', '-q');
    git(upstream.root, 'add', '.');
    git(upstream.root, 'commit', '-qm', 'up');
    git(top.root, 'init', '-q');
    git(top.root, 'submodule', '-q', 'add', upstream.root, 'libs/lib');
    git(top.at('libs/lib'), 'submodule', '-q', 'add', upstream.root, 'inner');
  });
  let linked: TempTree;
  afterAll(() => {
    for (const tree of [top, upstream, home, linked]) tree?.cleanup();
  });
  const segments = (): string[][] => repositoryHooksEntries(top.root, home.root).map((e) => [...e.segments]);

  it("blocks a submodule's configured hooks directory, relative to the submodule's work tree", () => {
    expect(segments()).toEqual([]);
    git(top.at('libs/lib'), 'config', 'core.hooksPath', '.githooks');
    expect(segments()).toEqual([['libs', 'lib', '.githooks']]);
  });

  it("so a session's file tools cannot write a hook there, and may write beside it", () => {
    const paths = new SessionPaths(makeCapability({ workspaceRoot: top.root, readRoots: [], excludedPaths: ['.git'] }));
    expect(() => paths.writable('libs/lib/.githooks/post-checkout', 'other')).toThrowError(expect.objectContaining({ code: 'BLOCKED_PATH' }));
    expect(() => paths.writable('libs/lib/a.txt', 'other')).not.toThrow();
  });

  it("and a submodule's own submodule's", () => {
    git(top.at('libs/lib/inner'), 'config', 'core.hooksPath', 'hooks-dir');
    expect(segments()).toEqual(expect.arrayContaining([['libs', 'lib', '.githooks'], ['libs', 'lib', 'inner', 'hooks-dir']]));
  });

  // A linked worktree keeps its submodules' repositories in its own git directory (.git/worktrees/<wt>/modules).
  it("blocks the hooks directory of a linked worktree's submodule", () => {
    git(top.root, 'commit', '-qm', 'with submodule');
    linked = makeTempTree('tw-subhooks-wt');
    const wt = `${linked.root}/wt`;
    git(top.root, 'worktree', 'add', '-q', wt);
    git(wt, 'submodule', '-q', 'update', '--init');
    git(`${wt}/libs/lib`, 'config', 'core.hooksPath', '.wthooks');
    expect(repositoryHooksEntries(wt, home.root).map((e) => [...e.segments])).toContainEqual(['libs', 'lib', '.wthooks']);
  });
});
