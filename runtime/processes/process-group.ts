import { spawnSync } from 'node:child_process';
import { findDescendants } from './descendants.js';

// Process groups (leader pids) this host has started and not yet seen end, across all registries.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Sends `signal` to the whole process group led by `pid` (the child was started detached, so it leads its
 * own group). On Windows, where groups do not exist, the tree is ended with `taskkill /T /F` whatever the
 * signal. A group that is already gone is not an error.
 */
export function killProcessGroup(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Sends `signal` to every descendant of `pid` but not to `pid` itself (Linux). Used to stop a sandboxed command
 * gracefully: its sandbox (bwrap) leads the group and has no handler for SIGTERM, so signalling it would end the
 * sandbox at once (and with it the command, by SIGKILL), and bwrap's `--new-session` puts the command outside the
 * group anyway. The sandbox's init ignores SIGTERM sent from outside its pid namespace, and exits with the command.
 */
export function signalDescendants(pid: number, signal: NodeJS.Signals): void {
  for (const descendant of findDescendants(pid)) {
    try {
      process.kill(descendant, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/**
 * SIGKILLs the group led by `pid` and every process that descended from its leader at that moment (Linux): a
 * process that left the group (setsid, bwrap's inner process before it set its parent-death signal) dies too.
 * The descendants are listed before the group is killed, while they are still the leader's descendants.
 */
export function killGroupAndDescendants(pid: number): void {
  const descendants = process.platform === 'linux' ? findDescendants(pid) : [];
  killProcessGroup(pid, 'SIGKILL');
  for (const descendant of descendants) {
    try {
      process.kill(descendant, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/** Records a live group so {@link killAllProcessGroupsSync} reaches it; installs the host exit hook once. */
export function trackProcessGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Runs on a normal exit and process.exit(), not when the host itself is SIGKILLed: then the process launcher,
    // which spawned the group and sees its IPC channel close, kills it (launcher-main.ts).
    process.on('exit', killAllProcessGroupsSync);
  }
}

/** Forgets a group whose leader has ended and whose remaining members were killed. */
export function untrackProcessGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** SIGKILLs every process group still tracked, synchronously; safe to call from an `exit` handler. */
export function killAllProcessGroupsSync(): void {
  for (const pid of liveGroups) {
    try {
      killProcessGroup(pid, 'SIGKILL');
    } catch {
      // Keep going: one group we may not signal must not spare the others.
    }
  }
  liveGroups.clear();
}

/** How many process groups are tracked as live (for diagnostics and tests). */
export function countLiveProcessGroups(): number {
  return liveGroups.size;
}
