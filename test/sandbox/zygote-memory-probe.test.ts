import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSelfTestScript, parseSelfTestOutput } from '../../src/sandbox/self-test.js';

// The zygote-memory-sealed probe on the host, against a real process standing in for the zygote: writable memory
// (same user) must fail, memory the prober may not attach to (another user's) must pass, and a probe that cannot
// tell (the pid is not the process it names) must fail closed.
const isRoot = process.getuid?.() === 0;
const targets = (pid: number, command: string) => ({ canary: '/nonexistent-canary', blockedDir: '/nonexistent-dir', maxProcesses: 1, memoryBytes: 2 ** 30, cpuSeconds: 60, tmpBytes: 2 ** 26, zygotePid: pid, zygoteCommand: command });
const probe = (pid: number, command: string, asNobody = false): boolean | undefined => {
  const line = buildSelfTestScript(targets(pid, command)).split('\n').find((l) => l.includes('zygote-memory-sealed')) ?? '';
  const argv = asNobody ? ['runuser', '-u', 'nobody', '--', 'sh', '-c', line] : ['sh', '-c', line];
  const out = execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', cwd: '/tmp' });
  return parseSelfTestOutput(out, targets(pid, command)).find((c) => c.property === 'zygote-memory-sealed')?.passed;
};

describe('the zygote-memory-sealed probe', () => {
  let target: ChildProcess;
  beforeAll(() => {
    target = spawn('sleep', ['300'], { stdio: 'ignore' });
  });
  afterAll(() => {
    target.kill('SIGKILL');
  });

  it('fails for a process whose memory the prober can write (same user, no Yama)', () => {
    let yama = 0;
    try {
      yama = Number(execFileSync('cat', ['/proc/sys/kernel/yama/ptrace_scope'], { encoding: 'utf8' }));
    } catch {
      // no Yama
    }
    // With Yama >= 1 a sibling cannot attach, so the probe rightly passes; the row is about kernels without it.
    expect(probe(target.pid!, 'sleep')).toBe(yama >= 1);
  });

  it.runIf(isRoot)('passes for a process the prober may not attach to (root-owned, probed as nobody)', () => {
    expect(probe(target.pid!, 'sleep', true)).toBe(true);
  });

  it.runIf(isRoot)('fails closed when the pid is not the process it names', () => {
    expect(probe(target.pid!, 'zygote-main.js', true)).toBe(false);
    expect(probe(999_999_999, 'sleep', true)).toBe(false);
  });
});
