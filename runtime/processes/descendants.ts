import { readdirSync, readFileSync } from 'node:fs';

/**
 * The host pids of every live descendant of `pid`, found through /proc (Linux). Descendants that left the process
 * group (a sandboxed command started with `bwrap --new-session`, or anything that called setsid) are included.
 */
export function findDescendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    const parent = readParentPid(child);
    if (parent === undefined) continue;
    const siblings = children.get(parent);
    if (siblings) siblings.push(child);
    else children.set(parent, [child]);
  }
  const found: number[] = [];
  const pending = [...(children.get(pid) ?? [])];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    found.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return found;
}

/**
 * The fields of /proc/<pid>/stat after the command name (index 0 is the state, field 3), undefined once `pid` is gone.
 * The name is in parentheses and may itself contain spaces or parentheses: the fields start after the last one.
 */
function statFieldsOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // it ended while we looked
  }
}

function readParentPid(pid: number): number | undefined {
  const parent = Number(statFieldsOf(pid)?.[1]);
  return Number.isInteger(parent) ? parent : undefined;
}

/**
 * The host pids below `pid` found through each task's `children` list (Linux), without reading all of /proc: cheap
 * for a small tree such as one sandbox's. Children of a thread other than the leader are included.
 */
export function findTreeBelow(pid: number): number[] {
  const found: number[] = [];
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue; // ended while we looked
    }
    for (const task of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${next}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ')) {
        const childPid = Number(child);
        if (child !== '' && Number.isInteger(childPid)) {
          found.push(childPid);
          pending.push(childPid);
        }
      }
    }
  }
  return found;
}

/** Whether `pid` names a process that has not exited yet (a zombie has: it only waits to be reaped). Linux. */
export function isRunning(pid: number): boolean {
  const state = statFieldsOf(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

/**
 * The start time of `pid` (clock ticks after boot, /proc/<pid>/stat field 22), undefined once it is gone. A pid with
 * the start time recorded earlier is still that process, not a reuse of its number.
 */
export function startTimeOf(pid: number): string | undefined {
  return statFieldsOf(pid)?.[19];
}

/** USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux ABI. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The CPU time (user and system, seconds) `pid` has used, if it is still the process that started at `startTime`
 * (see {@link startTimeOf}); undefined once it is gone.
 */
export function cpuSecondsOf(pid: number, startTime: string): number | undefined {
  const fields = statFieldsOf(pid);
  if (fields === undefined || fields[19] !== startTime) return undefined;
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
