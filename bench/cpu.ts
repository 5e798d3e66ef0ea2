import fs from 'node:fs';

/** Reads a CPU clock in microseconds; a turn's CPU is the difference of two readings. */
export type CpuClock = () => number;

// /proc/<pid>/stat counts in clock ticks: USER_HZ, 100 on every Linux build Node supports.
const TICK_US = 10_000;

/**
 * CPU time of this process (main thread and every worker, process.cpuUsage), plus that of its children once reaped
 * (Linux: /proc/self/stat, in 10 ms ticks), plus that of the live processes `pids()` names, every thread counted in
 * nanoseconds (/proc/<pid>/task/<tid>/schedstat) — for servers a scenario started. Elsewhere, this process alone.
 * @example const clock = cpuClock(); const before = clock(); await work(); const cpuUs = clock() - before;
 */
export function cpuClock(pids: () => readonly number[] = () => []): CpuClock {
  const linux = process.platform === 'linux';
  return () => {
    // Reading /proc costs this process some tens of microseconds per reading: noise next to a turn of calls.
    const others = linux ? pids().reduce((sum, pid) => sum + liveProcessUs(pid), 0) : 0;
    const reaped = linux ? reapedChildrenUs() : 0;
    const { user, system } = process.cpuUsage();
    return user + system + reaped + others;
  };
}

function reapedChildrenUs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name, which may hold spaces: cutime and cstime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_US;
}

function liveProcessUs(pid: number): number {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1000;
}
