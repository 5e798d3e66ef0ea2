import path from 'node:path';
import { analyzeShellCommand, checkShellCommand, type ShellCheck } from '../../src/shell/index.js';
import { loadShellParser } from '../shell-parser.js';
import type { SessionPaths } from '../broker/session-paths.js';
import { nodeShellFs } from './shell-fs.js';

/**
 * The static check of a shell command: parse it, find every path each simple command reads or writes, and check
 * each one through the session's guard (reads through resolveReadablePath, writes through resolveForWrite),
 * relative to the cwd the command list has reached at that point.
 */
export async function checkCommand(paths: SessionPaths, command: string, cwd: string, home: string, sandboxed: boolean): Promise<ShellCheck> {
  const parser = await loadShellParser();
  const analysis = analyzeShellCommand(parser, command, {
    cwd,
    home,
    workspaceRoot: paths.scope.workspaceRoot,
    readRoots: paths.scope.readRoots,
    allowOutsideWorkspace: paths.scope.allowOutsideWorkspace,
    fs: nodeShellFs,
  });
  const at = (target: string, from: string): string => (path.isAbsolute(target) ? target : path.join(from, target));
  return checkShellCommand(
    analysis,
    {
      read: (target, from) => void paths.readable(at(target, from)),
      write: (target, from, kind) => void paths.writable(at(target, from), kind),
    },
    { sandboxed },
  );
}
