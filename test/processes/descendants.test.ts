import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuSecondsOf, isRunning, startTimeOf } from '../../runtime/processes/descendants.js';

describe.runIf(process.platform === 'linux')('reading /proc/<pid>/stat', () => {
  it('gives this process its start time and CPU seconds, and running', () => {
    const start = startTimeOf(process.pid);
    expect(start).toMatch(/^\d+$/);
    const cpu = cpuSecondsOf(process.pid, start ?? '');
    expect(cpu).toBeGreaterThan(0);
    expect(cpu).toBeLessThanOrEqual(process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 + 0.05);
    expect(isRunning(process.pid)).toBe(true);
  });

  it('gives nothing for a start time that is not this process\'s (a reused pid) or a pid that is gone', () => {
    expect(cpuSecondsOf(process.pid, '1')).toBeUndefined();
    const gone = spawnSync('true').pid ?? 0;
    expect(startTimeOf(gone)).toBeUndefined();
    expect(cpuSecondsOf(gone, '1')).toBeUndefined();
    expect(isRunning(gone)).toBe(false);
  });
});
