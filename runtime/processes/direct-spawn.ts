import { execa } from 'execa';
import { killGroupAndDescendants, killProcessGroup, signalDescendants, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import type { GroupArgv, SpawnedGroup, SpawnGroupOptions } from './spawn-group.js';

/**
 * Spawns a group from this process itself (execa, detached, exactly `env`). The path for Windows, and the
 * fallback when the launcher cannot start: forking a host with a large heap blocks its event loop per command.
 * When the leader exits, whatever it left running in its group is SIGKILLed (POSIX).
 */
export function spawnGroupDirect(opts: SpawnGroupOptions, { file, args, stopThroughDescendants }: GroupArgv): SpawnedGroup {
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
  const done = subprocess.then((result) => {
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
      if (stopThroughDescendants && signal !== 'SIGKILL' && process.platform === 'linux') signalDescendants(pid, signal);
      else if (signal === 'SIGKILL') killGroupAndDescendants(pid);
      else killProcessGroup(pid, signal);
    },
  };
}
