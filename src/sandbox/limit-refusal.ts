import type { ErrorCode } from '../errors.js';

/** How a sandboxed command ended, as far as the limit check needs it. */
export interface CommandEnd {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  /** The session's memory cgroup, with this cap in bytes, killed a process while the command ran. */
  readonly oomKilledAtBytes?: number;
}

/** Which limit stopped a command, and the sentence that says so. */
export interface LimitRefusal {
  readonly code: Extract<ErrorCode, 'COMMAND_PROCESS_LIMIT' | 'TMP_SPACE_LIMIT' | 'MEMORY_LIMIT' | 'CPU_LIMIT'>;
  readonly message: string;
}

const SIGXCPU_EXIT = 128 + 24;
// What shells, coreutils and common runtimes print when fork fails with EAGAIN under RLIMIT_NPROC.
const FORK_FAILED = /\b(?:fork|clone|vfork|spawn)\b[^\n]*(?:Resource temporarily unavailable|EAGAIN)|Cannot fork|can't fork|BlockingIOError/i;
// ENOMEM as libc, Python, Node/V8, C++ and Rust report it under RLIMIT_DATA.
const OUT_OF_MEMORY = /Cannot allocate memory|MemoryError|\bENOMEM\b|std::bad_alloc|memory allocation of \d+ bytes failed|Fatal process out of memory|JavaScript heap out of memory|Array buffer allocation failed|out of memory/i;
const NO_SPACE = /No space left on device|ENOSPC/;

/**
 * The limit a failed sandboxed command most likely hit: SIGXCPU (directly or as bwrap's exit code 152) means the
 * CPU limit; otherwise the kernel's refusal as the command printed it. A full disk counts as the /tmp cap when the
 * message names one of `space.tmpDirs` (the private /tmp, HOME) or when the workspace, the only other writable
 * place, still has room. Undefined for a command that succeeded or failed for another reason.
 */
export function findLimitRefusal(
  end: CommandEnd,
  limits: { maxProcesses: number; memoryBytes: number; cpuSeconds: number; tmpBytes: number },
  space: { tmpDirs: readonly string[]; workspaceHasRoom: boolean },
): LimitRefusal | undefined {
  const { tmpDirs } = space;
  if (end.exitCode === 0) return undefined;
  if (end.oomKilledAtBytes !== undefined) {
    return { code: 'MEMORY_LIMIT', message: `the session's sandboxes together reached their memory cap of ${end.oomKilledAtBytes} bytes (limits.commandMemoryBytes, twice limits.sandboxTmpBytes and 256 MiB for the sandbox), so the kernel killed a process` };
  }
  if (end.signal === 'SIGXCPU' || end.exitCode === SIGXCPU_EXIT) {
    return { code: 'CPU_LIMIT', message: `a process used its ${limits.cpuSeconds} s of CPU time (limits.commandCpuSeconds) and was killed` };
  }
  const lines = end.stderr.split('\n');
  const namesTmp = (line: string): boolean => tmpDirs.some((dir) => line.includes(`${dir}/`) || line.includes(`'${dir}'`));
  if (lines.some((line) => NO_SPACE.test(line) && (namesTmp(line) || space.workspaceHasRoom))) {
    return { code: 'TMP_SPACE_LIMIT', message: `the private ${tmpDirs.join(' or ')} is full: its cap is ${limits.tmpBytes} bytes (limits.sandboxTmpBytes)` };
  }
  if (FORK_FAILED.test(end.stderr)) {
    return { code: 'COMMAND_PROCESS_LIMIT', message: `the command could not start another process: at most ${limits.maxProcesses} at once (limits.commandMaxProcesses)` };
  }
  if (OUT_OF_MEMORY.test(end.stderr)) {
    return { code: 'MEMORY_LIMIT', message: `the command could not allocate memory: each process may use ${limits.memoryBytes} bytes of private writable memory (limits.commandMemoryBytes)` };
  }
  return undefined;
}
