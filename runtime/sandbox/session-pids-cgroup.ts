import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPidsCgroupHome, type PidsCgroupHome } from '../../src/sandbox/pids-cgroup.js';

/** A pids cgroup made for one session's sandboxes (or one self-test), removed once they are gone. */
export interface PidsCgroup {
  /** The `cgroup.procs` file a sandbox's launcher hop writes itself into (see joinPidsCgroupArgv). */
  readonly procsFile: string;
  /** Its `pids.max`: tasks (processes and threads) of every sandbox in it together. */
  readonly maxTasks: number;
  /** Removes it once the tasks in it are gone (waits up to about a second for them). Idempotent. */
  close(): Promise<void>;
}

let home: PidsCgroupHome | null | undefined;
let made = 0;
const REMOVE_TRIES = 50;
const REMOVE_WAIT_MS = 20;

/**
 * A fresh pids cgroup below this process's own, with `pids.max` = `maxTasks`, or undefined where this process may
 * not make one (no pids controller, a read-only or undelegated hierarchy, not permitted): then only the rlimits
 * bound a sandbox, which do not bind the host's root (README "Resource limits").
 */
export function createPidsCgroup(maxTasks: number): PidsCgroup | undefined {
  const found = pidsCgroupHome();
  if (found === undefined) return undefined;
  const dir = join(found.dir, `toolwarden-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(dir, 'pids.max'), String(maxTasks));
  } catch {
    rmdirSync(dir);
    return undefined;
  }
  let closing: Promise<void> | undefined;
  return {
    procsFile: join(dir, 'cgroup.procs'),
    maxTasks,
    close: () => (closing ??= removeWhenEmpty(dir)),
  };
}

/** Where this process's pids cgroup is (found once); undefined where none can be used. */
function pidsCgroupHome(): PidsCgroupHome | undefined {
  if (home !== undefined) return home ?? undefined;
  home = null;
  if (process.platform !== 'linux') return undefined;
  try {
    const found = findPidsCgroupHome(readFileSync('/proc/self/cgroup', 'utf8'), readFileSync('/proc/self/mountinfo', 'utf8'));
    // In v2 a child gets pids.max only where the controller is delegated to this cgroup's children.
    if (found?.version === 2 && !readFileSync(join(found.dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids')) return undefined;
    home = found ?? null;
  } catch {
    home = null;
  }
  return home ?? undefined;
}

async function removeWhenEmpty(dir: string): Promise<void> {
  for (let attempt = 0; attempt < REMOVE_TRIES; attempt += 1) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((resolve) => setTimeout(resolve, REMOVE_WAIT_MS)); // EBUSY: its last tasks are still exiting
    }
  }
}
