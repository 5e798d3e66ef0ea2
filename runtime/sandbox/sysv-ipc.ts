/**
 * Removes the System V IPC objects (shared memory segments, semaphore sets, message queues) of this process's IPC
 * namespace. A sandbox has a namespace of its own (bwrap --unshare-ipc), which a zygote's commands share: a segment
 * made with `shmget` and never attached outlives the command that made it, holding memory that no tmpfs cap counts,
 * where a command with a bwrap of its own would have lost it with its namespace. The zygote sweeps whenever no
 * command runs. The objects are listed from /proc/sysvipc (this namespace's view) and removed with IPC_RMID, which
 * their owner, the sandbox's one user, may do.
 */
import { readFileSync } from 'node:fs';
import { loadLibc } from '../processes/libc.js';

const IPC_RMID = 0;

/** The ids in a /proc/sysvipc listing: its second column, below the header line. */
export function sysvIpcIds(listing: string): number[] {
  return listing
    .split('\n')
    .slice(1)
    .map((line) => Number(line.trim().split(/\s+/)[1]))
    .filter((id) => Number.isInteger(id) && id >= 0);
}

function idsIn(kind: 'shm' | 'sem' | 'msg'): number[] {
  try {
    return sysvIpcIds(readFileSync(`/proc/sysvipc/${kind}`, 'utf8'));
  } catch {
    return []; // no System V IPC in this kernel, or /proc hides it: nothing to sweep
  }
}

/** A sweep of this namespace's objects; resolves the reason it cannot sweep (koffi or libc missing) instead. */
export async function createSysvIpcSweeper(): Promise<(() => void) | string> {
  const loaded = await loadLibc();
  if ('failure' in loaded) return `System V IPC cleanup: ${loaded.failure}`;
  const shmctl = loaded.libc.func('int shmctl(int shmid, int cmd, void *buf)');
  const semctl = loaded.libc.func('int semctl(int semid, int semnum, int cmd, ...)');
  const msgctl = loaded.libc.func('int msgctl(int msqid, int cmd, void *buf)');
  return () => {
    // Three small reads when there is nothing to remove, the usual case: no call into libc.
    for (const id of idsIn('shm')) shmctl(id, IPC_RMID, null);
    for (const id of idsIn('sem')) semctl(id, 0, IPC_RMID);
    for (const id of idsIn('msg')) msgctl(id, IPC_RMID, null);
  };
}
