import fs from 'node:fs';
import path from 'node:path';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { buildCapability } from '../../runtime/session/session-options.js';
import { checkCommand } from '../../runtime/shell/command-check.js';
import type { ShellCheck } from '../../src/shell/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

/**
 * A real tree checked by the real guard, as the runtime checks a bash call with the sandbox off: a workspace (a
 * repository, with a nested one) whose links lead outside (a file, a directory, a missing file, a loop, `/`) and stay inside, a read root, and a
 * directory outside whose names must never show in what the checker says.
 */
export interface GuardFixture {
  tree: TempTree;
  ws: string;
  outside: string;
  /** The static check of `command` (`@B@` stands for the tree's root) from the workspace, or from `cwd` in it. */
  check(command: string, cwd?: string): Promise<ShellCheck>;
  /** Everything the check says about a command, with the tree's root written `@B@`. */
  said(check: ShellCheck): string;
}

/** Names that exist only outside: none may appear in a refusal unless the command wrote it. */
export const OUTSIDE_NAMES = ['secret-name.txt', 'inner-only.txt', 'hidden-sub', 'loop-target'];

export function createGuardFixture(): GuardFixture {
  const tree = makeTempTree('tw-guard-shell', {
    'ws/a.txt': 'a\n',
    'ws/src/x.ts': 'x\n',
    'ws/.git/HEAD': 'ref: refs/heads/main\n',
    'ws/.git/hooks/pre-commit.sample': '#!/bin/sh\n',
    'ws/nested/.git/config': '[core]\n',
    'ro/ref.txt': 'r\n',
    'outside/a.txt': 'outside a\n',
    'outside/secret-name.txt': 'secret\n',
    'outside/hidden-sub/inner-only.txt': 'inner\n',
    'home/.bashrc': '\n',
  });
  const ws = tree.at('ws');
  const outside = tree.at('outside');
  const link = (target: string, at: string): void => fs.symlinkSync(target, path.join(ws, at));
  fs.mkdirSync(path.join(ws, 'links'));
  fs.mkdirSync(path.join(ws, 'links-in'));
  link('/', 'root-link');
  link(outside, 'out-link');
  link(path.join(outside, 'a.txt'), 'links/out-file');
  link(outside, 'links/out-dir');
  link(path.join(outside, 'missing.txt'), 'links/out-missing');
  link(path.join(outside, 'loop-target'), 'links/out-loop');
  fs.symlinkSync('loop-target', path.join(outside, 'loop-target'));
  link('../a.txt', 'links-in/in-file');
  link('../src', 'links-in/in-dir');
  link(tree.at('ro'), 'links-in/ro-dir');
  const capability = buildCapability({ workspaceRoot: ws, readRoots: [tree.at('ro')], tools: ['bash'], sandbox: 'off' }, { sandbox: 'off', toolModules: [] });
  const paths = new SessionPaths(capability);
  return {
    tree,
    ws,
    outside,
    check: (command, cwd = '.') => checkCommand(paths, command.replaceAll('@B@', tree.root), path.resolve(ws, cwd), tree.at('home'), false),
    said: (check) => JSON.stringify({ reasons: check.reasons, perCommand: check.perCommand, boundary: check.boundaryReasons, call: check.callReasons, path: check.decidingPath }).replaceAll(tree.root, '@B@'),
  };
}
