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

function readParentPid(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // it ended while we looked
  }
  // The command name is in parentheses and may itself contain spaces or parentheses: read after the last one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  return Number.isInteger(parent) ? parent : undefined;
}
