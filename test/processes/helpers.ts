import { execFileSync } from 'node:child_process';
import { buildChildEnv } from '../../src/child-env.js';
import { resolveShell } from '../../runtime/processes/shell.js';

/** Pids of live (non-zombie) processes in a process group, read from ps. */
export function livePidsInGroup(pgid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/** Whether a pid is a live (non-zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or `ms` pass (SIGKILL delivery is asynchronous); returns its last value. */
export async function eventually(check: () => boolean, ms = 3_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

export const SHELL = resolveShell(process.platform);
export const CHILD_ENV = buildChildEnv(process.env, undefined);

/** The parent pid and command line of a live process, read from ps. */
export function describeProcess(pid: number): { ppid: number; args: string } {
  const [ppid = '', ...args] = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim().split(/\s+/);
  return { ppid: Number(ppid), args: args.join(' ') };
}
