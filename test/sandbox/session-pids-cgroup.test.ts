import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinPidsCgroupArgv } from '../../src/sandbox/pids-cgroup.js';
import { createPidsCgroup } from '../../runtime/sandbox/session-pids-cgroup.js';

const probe = process.getuid?.() === 0 ? createPidsCgroup(8) : undefined;
await probe?.close();

// Starts `tries` background sleeps in a shell that joined the cgroup first; prints how many started.
function startInCgroup(procsFile: string, tries: number): number {
  const script = `(i=0; while [ $i -lt ${tries} ]; do sleep 5 >/dev/null 2>&1 </dev/null & echo s; i=$((i+1)); done) 2>/dev/null | wc -l; kill 0 2>/dev/null`;
  const [file = '', ...args] = joinPidsCgroupArgv(procsFile, ['/bin/sh', '-c', script]);
  const run = spawnSync(file, args, { encoding: 'utf8', detached: true, timeout: 10_000 } as never);
  return Number(String(run.stdout).trim().split('\n')[0]);
}

describe.runIf(probe !== undefined)('createPidsCgroup (as root, where a pids cgroup can be made)', () => {
  it('writes pids.max, and a process that joined it cannot fork past it', async () => {
    const cgroup = createPidsCgroup(12);
    if (cgroup === undefined) throw new Error('no cgroup');
    try {
      expect(readFileSync(`${dirname(cgroup.procsFile)}/pids.max`, 'utf8').trim()).toBe('12');
      // Attack: 40 at once against 12 (the shells and wc take some of them).
      expect(startInCgroup(cgroup.procsFile, 40)).toBeLessThan(12);
    } finally {
      await cgroup.close();
    }
    expect(existsSync(dirname(cgroup.procsFile))).toBe(false);
  });

  it('near miss: below its pids.max every fork succeeds', async () => {
    const cgroup = createPidsCgroup(64);
    if (cgroup === undefined) throw new Error('no cgroup');
    try {
      expect(startInCgroup(cgroup.procsFile, 20)).toBe(20);
    } finally {
      await cgroup.close();
    }
  });

  it('a join that fails runs nothing (fails closed)', () => {
    const [file = '', ...args] = joinPidsCgroupArgv('/nonexistent/cgroup.procs', ['/bin/sh', '-c', 'echo ran']);
    const run = spawnSync(file, args, { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
  });

  it('two cgroups of one process are distinct, and each closes once', async () => {
    const a = createPidsCgroup(8);
    const b = createPidsCgroup(8);
    expect(a?.procsFile).not.toBe(b?.procsFile);
    await Promise.all([a?.close(), a?.close(), b?.close()]);
    expect(execFileSync('ls', [dirname(dirname(a?.procsFile ?? '/'))], { encoding: 'utf8' })).not.toContain(`toolwarden-${process.pid}-`);
  });
});
