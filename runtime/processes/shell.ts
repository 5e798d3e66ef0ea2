import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';

/** How to run a command line through a shell: the program and its arguments for a given command. */
export interface ShellSpec {
  /** The shell program (a name looked up on PATH, or an absolute path). */
  file: string;
  /** The shell's arguments that make it run `command` and exit. */
  args: (command: string) => string[];
  /** Pass arguments to Windows unquoted (cmd.exe parses its own command line). @default false */
  windowsVerbatimArguments?: boolean;
}

/** The shells {@link resolveShell} knows. */
export type ShellName = 'bash' | 'sh' | 'cmd' | 'powershell';

/** Rewrites the argv about to be spawned, e.g. to run it inside an OS sandbox (bwrap). Identity by default. */
export type CommandWrapper = (argv: string[], cwd: string) => string[];

const POSIX_SHELLS: readonly ShellName[] = ['bash', 'sh'];
const WINDOWS_SHELLS: readonly ShellName[] = ['cmd', 'powershell', 'bash'];

/**
 * The shell for a platform: bash on POSIX (sh when bash is not on PATH), cmd.exe on Windows unless
 * `preference` says otherwise. A preference the platform cannot honour throws `INVALID_OPTIONS`.
 * @example resolveShell('linux').args('echo hi') // ['-c', 'echo hi']
 */
export function resolveShell(platform: NodeJS.Platform, preference?: ShellName, pathEnv = process.env['PATH'] ?? ''): ShellSpec {
  const allowed = platform === 'win32' ? WINDOWS_SHELLS : POSIX_SHELLS;
  if (preference !== undefined && !allowed.includes(preference)) {
    throw new ToolwardenError('INVALID_OPTIONS', `shell "${preference}" is not available on ${platform}; choose one of ${allowed.join(', ')}`);
  }
  const choice = preference ?? (platform === 'win32' ? 'cmd' : findOnPath('bash', pathEnv, platform) ? 'bash' : 'sh');
  switch (choice) {
    case 'cmd':
      return { file: 'cmd.exe', args: (command) => ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true };
    case 'powershell':
      return { file: 'powershell.exe', args: (command) => ['-NoProfile', '-NonInteractive', '-Command', command] };
    case 'bash':
      if (preference === 'bash' && !findOnPath('bash', pathEnv, platform)) {
        throw new ToolwardenError('INVALID_OPTIONS', `shell "bash" was requested but no bash executable is on PATH`);
      }
      // Node's stdin "pipe" is a socketpair, and bash -c sources ~/.bashrc when stdin is a socket.
      return { file: 'bash', args: (command) => ['--noprofile', '--norc', '-c', command] };
    case 'sh':
      return { file: 'sh', args: (command) => ['-c', command] };
  }
}

/** Whether an executable `name` is in one of the directories of `pathEnv` (PATH as `platform` writes it). */
export function findOnPath(name: string, pathEnv: string, platform: NodeJS.Platform): boolean {
  const names = platform === 'win32' ? [`${name}.exe`] : [name];
  const separator = platform === 'win32' ? ';' : ':';
  return pathEnv.split(separator).some((dir) =>
    dir !== '' && names.some((file) => {
      try {
        accessSync(path.join(dir, file), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    }),
  );
}
