import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult } from '../helpers/run-sandboxed.js';

// The blocklist holds for sandboxed commands at any depth and for paths created during the command: what a
// command plants is reported (BLOCKED_PATH_WRITTEN, blockedPaths) and removed; top-level ones cannot be created.
// Each attack runs from a script file (`sh plant-N.sh`) so the static check, which reads only the command line,
// is not what stops it. The repository session excludes nothing, so its own .git/config is writable (near miss).
type Row = [name: string, command: string, gone: string[], written: boolean];

const FRESH: Row[] = [
  ['.git/hooks when .git did not exist at start', 'mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit', ['.git/hooks'], true],
  ['a nested .ssh/authorized_keys', 'mkdir -p deep/x/.ssh && echo key > deep/x/.ssh/authorized_keys', ['deep/x/.ssh'], true],
  ['an excluded path missing at start', 'mkdir -p secrets && echo s > secrets/token', ['secrets'], true],
  ['a top-level .ssh (kept from being created)', 'mkdir -p .ssh; echo key > .ssh/authorized_keys', ['.ssh'], false],
  ['a top-level .bashrc (kept from being created)', 'echo evil >> .bashrc', ['.bashrc'], false],
  ['a nested .envrc', 'mkdir -p a/b && echo evil > a/b/.envrc', ['a/b/.envrc'], true],
];

// In a workspace of its own, where .git does not exist: a .git file or symlink makes git use another directory as
// the repository, whose hooks and config would run.
const TOP_GITFILE: Row = ['a top-level .git file (gitdir: elsewhere)', 'git init -q t && mv t/.git gd && echo "gitdir: gd" > .git', ['.git'], true];

const REPO: Row[] = [
  ['a nested repository hook', 'mkdir -p sub/.git/hooks && echo evil > sub/.git/hooks/pre-commit', ['sub/.git/hooks'], true],
  ["a nested repository's .git/config", 'mkdir -p sub2/.git && echo "[core] fsmonitor = evil" > sub2/.git/config', ['sub2/.git/config'], true],
  ['a nested .git file (gitdir: ../gd)', 'mkdir -p sub3 gd/hooks && echo "gitdir: ../gd" > sub3/.git', ['sub3/.git'], true],
  ['a nested .git symlink', 'mkdir -p gd2 sub4 && ln -s ../gd2 sub4/.git', ['sub4/.git'], true],
  // A nested .git directory whose commondir points at a repository of the command's making (attacker pass).
  ['a nested .git/commondir', 'mkdir -p gd3/objects gd3/refs/heads sub5/.git && echo "ref: refs/heads/main" > sub5/.git/HEAD && echo ../../gd3 > sub5/.git/commondir', ['sub5/.git/commondir'], true],
  // A directory with HEAD, objects and refs is a repository to git, whose own config it runs (attacker pass).
  ['an embedded bare repository', 'mkdir -p bare/objects bare/refs/heads && echo "ref: refs/heads/main" > bare/HEAD && echo "[core] fsmonitor = evil" > bare/config', ['bare/config'], true],
  ["a nested repository's config.worktree", 'mkdir -p sub6/.git && echo "[core] fsmonitor = evil" > sub6/.git/config.worktree', ['sub6/.git/config.worktree'], true],
  // The top repository's submodule repositories live under .git/modules/<name>; git runs their hooks.
  ["a hook of the top repository's submodule", 'mkdir -p .git/modules/lib/a/hooks && echo evil > .git/modules/lib/a/hooks/post-checkout', ['.git/modules/lib/a/hooks'], true],
  ['hooks after mv .git .gitx', 'mv .git .gitx && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit', ['.git/hooks'], true],
];

const NEAR_MISSES: [string, string][] = [
  ['writing .gitignore', 'echo dist > .gitignore'],
  ['an ordinary file', 'mkdir -p src && echo x > src/a.txt'],
  ["the top repository's .git/config", 'git config user.name agent'],
  ['git status', 'git status --porcelain'],
  ['an empty nested .git directory', 'mkdir -p x/.git'],
  // From a script, as the plants are: the static check asks for any write into the top .git.
  ["the config of the top repository's submodule (the host's, like .git/config)", 'sh modules-config.sh'],
  ['a config file in a directory that is no repository', 'mkdir -p app/refs && echo x > app/HEAD && echo "debug = true" > app/config'],
];

describe.each(DRIVER_USERS)('the blocklist inside the sandbox, as %s', (user) => {
  let fresh: TempTree;
  let repo: TempTree;
  let gitfile: TempTree;
  let gitfileResult: DriverResult | undefined;
  let freshResults: DriverResult[];
  let repoResults: DriverResult[];

  beforeAll(async () => {
    fresh = makeTempTree('tw-blk-fresh', { 'a.txt': 'a\n' });
    repo = makeTempTree('tw-blk-repo', { 'a.txt': 'a\n' });
    gitfile = makeTempTree('tw-blk-gitfile', { 'plant.sh': `${TOP_GITFILE[1]}\n` });
    execFileSync('git', ['init', '-q', repo.root]);
    FRESH.forEach(([, script], i) => fresh.write({ [`plant-${i}.sh`]: `${script}\n` }));
    REPO.forEach(([, script], i) => repo.write({ [`plant-${i}.sh`]: `${script}\n` }));
    repo.write({ 'modules-config.sh': 'mkdir -p .git/modules/lib/b && echo "[core]" > .git/modules/lib/b/config\n' });
    if (user === 'nobody') {
      giveToNobody(fresh.root);
      giveToNobody(repo.root);
      giveToNobody(gitfile.root);
    }
    [gitfileResult] = await runSandboxed(user, gitfile.root, ['sh plant.sh'], { excludedPaths: [] });
    freshResults = await runSandboxed(user, fresh.root, FRESH.map((_row, i) => `sh plant-${i}.sh`), { excludedPaths: ['secrets'] });
    // The near misses first: the mv row breaks the repository.
    repoResults = await runSandboxed(user, repo.root, [...NEAR_MISSES.map(([, c]) => c), ...REPO.map((_row, i) => `sh plant-${i}.sh`)], { excludedPaths: [] });
  }, 120_000);
  afterAll(() => {
    fresh.cleanup();
    repo.cleanup();
    gitfile.cleanup();
  });

  const check = (tree: () => TempTree, result: () => DriverResult | undefined, gone: string[], written: boolean): void => {
    const r = result();
    for (const relative of gone) expect(existsSync(tree().at(relative)), `${relative} after: ${r?.text}`).toBe(false);
    if (written) {
      expect(r?.code, r?.text).toBe('BLOCKED_PATH_WRITTEN');
      expect(JSON.stringify(r?.blocked)).toContain(gone[0]);
    } else {
      expect(r?.code ?? null, r?.text).not.toBe('BLOCKED_PATH_WRITTEN');
    }
  };

  it.each(FRESH.map((row, i) => [...row, i] as const))('%s: refused or removed', (_name, _command, gone, written, i) => {
    check(() => fresh, () => freshResults[i], gone, written);
  });

  it(`${TOP_GITFILE[0]}: reported and removed`, () => {
    check(() => gitfile, () => gitfileResult, TOP_GITFILE[2], TOP_GITFILE[3]);
  });

  it.each(REPO.map((row, i) => [...row, i] as const))('%s: reported and removed', (_name, _command, gone, written, i) => {
    check(() => repo, () => repoResults[NEAR_MISSES.length + i], gone, written);
  });

  it.each(NEAR_MISSES.map((row, i) => [...row, i] as const))('near miss: %s is allowed', (_name, _command, i) => {
    const r = repoResults[i];
    expect(r?.isError, r?.text).toBe(false);
    expect(r?.exitCode, r?.text).toBe(0);
  });

  it('leaves no stub mount points behind, and keeps what the near misses wrote', () => {
    expect(existsSync(repo.at('.ssh'))).toBe(false);
    expect(existsSync(repo.at('.bashrc'))).toBe(false);
    expect(readFileSync(repo.at('.gitignore'), 'utf8')).toBe('dist\n');
  });

  // `mv .git .gitx` turns the top repository into an embedded bare one (HEAD, objects, refs) under a new name: its
  // config and hooks there are what the command created, so they are reported and removed like any plant.
  it('a repository moved aside is an embedded bare repository: its config and hooks are removed', () => {
    const moved = repoResults[NEAR_MISSES.length + REPO.findIndex(([name]) => name === 'hooks after mv .git .gitx')];
    expect(JSON.stringify(moved?.blocked)).toContain('.gitx/config');
    expect(existsSync(repo.at('.gitx/config'))).toBe(false);
    expect(existsSync(repo.at('.gitx/HEAD'))).toBe(true);
  });
});
