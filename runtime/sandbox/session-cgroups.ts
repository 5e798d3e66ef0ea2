import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCgroupHome, parseOomKills, type CgroupController, type CgroupHome } from '../../src/sandbox/cgroups.js';

/** The cgroups made for one session's sandboxes (or one self-test), removed once they are gone. */
export interface SessionCgroups {
  /** The `cgroup.procs` files a sandbox's launcher hop writes itself into (see joinCgroupsArgv). */
  readonly procsFiles: readonly string[];
  /** Its `pids.max` (tasks of every sandbox in it together), when a pids cgroup was made. */
  readonly maxTasks: number | undefined;
  /** Its memory limit (bytes, every sandbox in it together, tmpfs pages included), when a memory cgroup was made. */
  readonly memoryBytes: number | undefined;
  /** How many processes the memory cgroup's OOM killer has killed so far; undefined without one. */
  oomKills(): number | undefined;
  /** Removes them once the tasks in them are gone (waits up to about a second for them). Idempotent. */
  close(): Promise<void>;
}

/** What to bound; a controller left out is not made. */
export interface SessionCgroupLimits {
  readonly maxTasks?: number;
  readonly memoryBytes?: number;
}

const homes = new Map<CgroupController, CgroupHome | null>();
let made = 0;
const REMOVE_TRIES = 50;
const REMOVE_WAIT_MS = 20;

/**
 * Fresh cgroups below this process's own for each limit given (`pids.max`; v1 `memory.limit_in_bytes` or v2
 * `memory.max`), or undefined where this process may make none (no controller, a read-only or undelegated
 * hierarchy, not permitted): then only the rlimits bound a sandbox (docs/sandbox.md, "Resource limits").
 */
export function createSessionCgroups(limits: SessionCgroupLimits): SessionCgroups | undefined {
  const name = `toolwarden-${process.pid}-${++made}`;
  const pids = limits.maxTasks === undefined ? undefined : makeCgroup('pids', name, { 1: 'pids.max', 2: 'pids.max' }, limits.maxTasks);
  const memory = limits.memoryBytes === undefined ? undefined : makeCgroup('memory', name, { 1: 'memory.limit_in_bytes', 2: 'memory.max' }, limits.memoryBytes);
  const cgroups = [pids, memory].filter((cgroup) => cgroup !== undefined);
  if (cgroups.length === 0) return undefined;
  let closing: Promise<void> | undefined;
  return {
    procsFiles: cgroups.map((cgroup) => join(cgroup.dir, 'cgroup.procs')),
    maxTasks: pids === undefined ? undefined : limits.maxTasks,
    memoryBytes: memory === undefined ? undefined : limits.memoryBytes,
    oomKills: () => {
      if (memory === undefined) return undefined;
      try {
        return parseOomKills(readFileSync(join(memory.dir, memory.version === 1 ? 'memory.oom_control' : 'memory.events'), 'utf8'));
      } catch {
        return undefined;
      }
    },
    close: () => (closing ??= Promise.all(cgroups.map((cgroup) => removeWhenEmpty(cgroup.dir))).then(() => undefined)),
  };
}

/** A child cgroup of `controller` named `name` with its limit file written, or undefined. */
function makeCgroup(controller: CgroupController, name: string, limitFile: Record<1 | 2, string>, limit: number): CgroupHome | undefined {
  const found = cgroupHome(controller);
  if (found === undefined) return undefined;
  const dir = join(found.dir, name);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(dir, limitFile[found.version]), String(limit));
  } catch {
    rmdirSync(dir);
    return undefined;
  }
  return { version: found.version, dir };
}

/** Where this process's cgroup of `controller` is (found once); undefined where none can be used. */
function cgroupHome(controller: CgroupController): CgroupHome | undefined {
  const known = homes.get(controller);
  if (known !== undefined) return known ?? undefined;
  let home: CgroupHome | null = null;
  if (process.platform === 'linux') {
    try {
      const found = findCgroupHome(controller, readFileSync('/proc/self/cgroup', 'utf8'), readFileSync('/proc/self/mountinfo', 'utf8'));
      // In v2 a child gets the controller's files only where it is delegated to this cgroup's children.
      const delegated = found?.version !== 2 || readFileSync(join(found.dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes(controller);
      home = found !== undefined && delegated ? found : null;
    } catch {
      home = null;
    }
  }
  homes.set(controller, home);
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
