import type { Readable, Writable } from 'node:stream';
import { ToolwardenError } from '../../src/errors.js';
import { spawnGroupDirect } from './direct-spawn.js';
import { launchGroup } from './launched-group.js';
import { acquireLauncher } from './shared-launcher.js';
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

/** The program to run for a {@link SpawnGroupOptions}, after the shell and the wrapper had their say. */
export interface GroupArgv {
  file: string;
  args: string[];
  /** Set when a wrapper (a sandbox) leads the group: stop signals then go to its descendants. */
  stopThroughDescendants: boolean;
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
 * Spawns a shell command as the leader of a new process group (detached), with no inherited environment, and
 * resolves once it has started or failed to. On POSIX the spawn is done by this host's process launcher (a small
 * pre-started process, so the host with its large heap is never forked); on Windows, or when the launcher cannot
 * start, by this process. When the leader exits, whatever it left running in its group is SIGKILLed (POSIX).
 */
export async function spawnGroup(opts: SpawnGroupOptions): Promise<SpawnedGroup> {
  const argv = argvOf(opts);
  const launcher = process.platform === 'win32' ? undefined : await acquireLauncher();
  if (!launcher) return spawnGroupDirect(opts, argv);
  return launchGroup(launcher, { ...argv, cwd: opts.cwd, env: opts.env, stdin: opts.stdin });
}

function argvOf(opts: SpawnGroupOptions): GroupArgv {
  const shellArgv = [opts.shell.file, ...opts.shell.args(opts.command)];
  const argv = opts.wrap ? opts.wrap(shellArgv, opts.cwd) : shellArgv;
  const [file, ...args] = argv;
  if (file === undefined || file === '') {
    throw new ToolwardenError('SPAWN_FAILED', `the command wrapper returned an empty argv for "${opts.command}"`);
  }
  return { file, args, stopThroughDescendants: argv !== shellArgv && argv[0] !== shellArgv[0] };
}
