import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { ToolwardenError } from '../../src/errors.js';
import { killProcessGroup, signalDescendants, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import type { CommandWrapper, ShellSpec } from './shell.js';

/** What to spawn: a command line run by `shell` (argv passed through `wrap`), in `cwd`, with exactly `env`. */
export interface SpawnGroupOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  shell: ShellSpec;
  wrap?: CommandWrapper | undefined;
  stdin: 'pipe' | 'ignore';
}

/** How a group's leader ended; `spawnError` is set when it never started. */
export interface GroupExit {
  exitCode: number | null;
  signal: string | null;
  spawnError?: string;
}

/** A running shell command leading its own process group. */
export interface SpawnedGroup {
  /** The leader's host pid; undefined when the spawn failed (then `done` carries `spawnError`). */
  pid: number | undefined;
  stdout: Readable | null;
  stderr: Readable | null;
  stdin: Writable | null;
  /** Resolves when the leader has exited, the rest of its group was killed, and stdio has closed. */
  done: Promise<GroupExit>;
  /** Whether the leader has exited. */
  readonly exited: boolean;
  /** Signals the whole group; a no-op once the leader has exited (its pid may be reused). */
  signal(signal: NodeJS.Signals): void;
}

/**
 * Spawns a shell command as the leader of a new process group (detached), with no inherited environment.
 * When the leader exits, whatever it left running in its group is SIGKILLed, so nothing outlives it (POSIX).
 */
export function spawnGroup(opts: SpawnGroupOptions): SpawnedGroup {
  const shellArgv = [opts.shell.file, ...opts.shell.args(opts.command)];
  const argv = opts.wrap ? opts.wrap(shellArgv, opts.cwd) : shellArgv;
  const [file, ...args] = argv;
  const sandboxed = argv !== shellArgv && argv[0] !== shellArgv[0];
  if (file === undefined || file === '') {
    throw new ToolwardenError('SPAWN_FAILED', `the command wrapper returned an empty argv for "${opts.command}"`);
  }
  const subprocess = execa(file, args, {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    detached: true,
    stdin: opts.stdin,
    encoding: 'buffer',
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    windowsHide: true,
    windowsVerbatimArguments: opts.shell.windowsVerbatimArguments ?? false,
  });
  const pid = subprocess.pid;
  let exited = pid === undefined;
  if (pid !== undefined) {
    trackProcessGroup(pid);
    subprocess.once('exit', () => {
      exited = true;
      // Windows has no groups: taskkill /T on a dead leader's pid could hit an unrelated process reusing it.
      if (process.platform !== 'win32') killProcessGroup(pid, 'SIGKILL');
      untrackProcessGroup(pid);
    });
  }
  const done = subprocess.then((result): GroupExit => {
    if (pid === undefined) {
      return { exitCode: null, signal: null, spawnError: result.shortMessage ?? `could not start "${file}"` };
    }
    return { exitCode: result.exitCode ?? null, signal: result.signal ?? null };
  });
  return {
    pid,
    stdout: subprocess.stdout,
    stderr: subprocess.stderr,
    stdin: subprocess.stdin,
    done,
    get exited() {
      return exited;
    },
    signal(signal) {
      if (exited || pid === undefined) return;
      // A sandboxed command is asked to stop through its own processes, not through the sandbox leading the group.
      if (sandboxed && signal !== 'SIGKILL' && process.platform === 'linux') signalDescendants(pid, signal);
      else killProcessGroup(pid, signal);
    },
  };
}
