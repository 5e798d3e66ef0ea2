import { describe, expect, it } from 'vitest';
import { findLimitRefusal, type CommandEnd } from '../../src/sandbox/limit-refusal.js';

const LIMITS = { maxProcesses: 64, memoryBytes: 1 << 30, cpuSeconds: 1, tmpBytes: 1 << 20 };
const end = (stderr: string, exitCode: number | null = 1, signal: string | null = null): CommandEnd => ({ stderr, exitCode, signal });

describe('findLimitRefusal', () => {
  it.each<[string, CommandEnd, string | undefined]>([
    ['SIGXCPU through bwrap', end('', 152), 'CPU_LIMIT'],
    ['SIGXCPU as a signal', end('', null, 'SIGXCPU'), 'CPU_LIMIT'],
    ['dash out of processes', end('sh: 1: Cannot fork\n', 2), 'COMMAND_PROCESS_LIMIT'],
    ['bash out of processes', end('bash: fork: retry: Resource temporarily unavailable\n'), 'COMMAND_PROCESS_LIMIT'],
    ['dd filling /tmp', end("dd: error writing '/tmp/f': No space left on device\n"), 'TMP_SPACE_LIMIT'],
    ['python filling HOME', end("OSError: [Errno 28] No space left on device: '/tmp/home/x'\n"), 'TMP_SPACE_LIMIT'],
    ['python out of memory', end('Traceback...\nMemoryError\n'), 'MEMORY_LIMIT'],
    ['C out of memory', end('cc1: out of memory allocating 65536 bytes\n'), 'MEMORY_LIMIT'],
    ['python filling a tmpfs, no path, the workspace has room', end('OSError: [Errno 28] No space left on device\n'), 'TMP_SPACE_LIMIT'],
    ['an ordinary failure', end('grep: x: No such file or directory\n', 2), undefined],
    ['success with scary text', end('MemoryError', 0), undefined],
    // The session's memory cgroup killed a process (a shared mapping RLIMIT_DATA does not count): no message at all.
    ['an OOM kill by the memory cgroup', { ...end('', null, 'SIGKILL'), oomKilledAtBytes: 1 << 31 }, 'MEMORY_LIMIT'],
    ['an OOM-killed child under a shell that exits 137', { ...end('Killed\n', 137), oomKilledAtBytes: 1 << 31 }, 'MEMORY_LIMIT'],
    ['near miss: a SIGKILL with no OOM kill counted', end('', null, 'SIGKILL'), undefined],
  ])('%s', (_name, commandEnd, code) => {
    expect(findLimitRefusal(commandEnd, LIMITS, { tmpDirs: ['/tmp', '/tmp/home'], workspaceHasRoom: true })?.code).toBe(code);
  });

  it.each([
    ["cp: error writing '/ws/big': No space left on device\n", undefined],
    ['OSError: [Errno 28] No space left on device\n', undefined],
    ["dd: error writing '/tmp/f': No space left on device\n", 'TMP_SPACE_LIMIT'],
  ])('with the workspace disk full, only a message naming /tmp is the /tmp cap: %s', (stderr, code) => {
    expect(findLimitRefusal(end(stderr), LIMITS, { tmpDirs: ['/tmp'], workspaceHasRoom: false })?.code).toBe(code);
  });
});
