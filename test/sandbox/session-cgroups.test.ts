import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinCgroupsArgv } from '../../src/sandbox/cgroups.js';
import { createSessionCgroups } from '../../runtime/sandbox/session-cgroups.js';

const probe = process.getuid?.() === 0 ? createSessionCgroups({ maxTasks: 8 }) : undefined;
await probe?.close();

// Starts `tries` background sleeps in a shell that joined the cgroup first; prints how many started.
function startInCgroup(procsFile: string, tries: number): number {
  const script = `(i=0; while [ $i -lt ${tries} ]; do sleep 5 >/dev/null 2>&1 </dev/null & echo s; i=$((i+1)); done) 2>/dev/null | wc -l; kill 0 2>/dev/null`;
  const [file = '', ...args] = joinCgroupsArgv([procsFile], ['/bin/sh', '-c', script]);
  const run = spawnSync(file, args, { encoding: 'utf8', detached: true, timeout: 10_000 } as never);
  return Number(String(run.stdout).trim().split('\n')[0]);
}

describe.runIf(probe !== undefined)('createSessionCgroups: pids (as root, where a pids cgroup can be made)', () => {
  it('writes pids.max, and a process that joined it cannot fork past it', async () => {
    const cgroup = createSessionCgroups({ maxTasks: 12 });
    if (cgroup === undefined) throw new Error('no cgroup');
    try {
      expect(readFileSync(`${dirname(cgroup.procsFiles[0] ?? '')}/pids.max`, 'utf8').trim()).toBe('12');
      // Attack: 40 at once against 12 (the shells and wc take some of them).
      expect(startInCgroup(cgroup.procsFiles[0] ?? '', 40)).toBeLessThan(12);
    } finally {
      await cgroup.close();
    }
    expect(existsSync(dirname(cgroup.procsFiles[0] ?? ''))).toBe(false);
  });

  it('near miss: below its pids.max every fork succeeds', async () => {
    const cgroup = createSessionCgroups({ maxTasks: 64 });
    if (cgroup === undefined) throw new Error('no cgroup');
    try {
      expect(startInCgroup(cgroup.procsFiles[0] ?? '', 20)).toBe(20);
    } finally {
      await cgroup.close();
    }
  });

  it('a join that fails runs nothing (fails closed)', () => {
    const [file = '', ...args] = joinCgroupsArgv(['/nonexistent/cgroup.procs'], ['/bin/sh', '-c', 'echo ran']);
    const run = spawnSync(file, args, { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
  });

  it('two cgroups of one process are distinct, and each closes once', async () => {
    const a = createSessionCgroups({ maxTasks: 8 });
    const b = createSessionCgroups({ maxTasks: 8 });
    expect(a?.procsFiles[0]).not.toBe(b?.procsFiles[0]);
    await Promise.all([a?.close(), a?.close(), b?.close()]);
    expect(execFileSync('ls', [dirname(dirname(a?.procsFiles[0] ?? '/'))], { encoding: 'utf8' })).not.toContain(`toolwarden-${process.pid}-`);
  });
});

const memoryProbe = process.getuid?.() === 0 ? createSessionCgroups({ memoryBytes: 64 * 1024 * 1024 }) : undefined;
await memoryProbe?.close();

// Touches `mib` MiB of a shared anonymous mapping (not counted by RLIMIT_DATA) in a process that joined the cgroups.
function touchShared(procsFiles: readonly string[], mib: number): number | null {
  const code = `import mmap\nm = mmap.mmap(-1, ${mib} * 1024 * 1024, flags=mmap.MAP_SHARED)\nfor i in range(0, len(m), 4096): m[i] = 1\nprint('ok')`;
  const [file = '', ...args] = joinCgroupsArgv(procsFiles, ['python3', '-c', code]);
  return spawnSync(file, args, { encoding: 'utf8', timeout: 20_000 }).status;
}

describe.runIf(memoryProbe?.memoryBytes !== undefined)('createSessionCgroups: memory (as root, where a memory cgroup can be made)', () => {
  it('attack: a shared mapping past the cap is killed, and the OOM kill is counted', async () => {
    const cgroups = createSessionCgroups({ memoryBytes: 64 * 1024 * 1024 });
    if (cgroups === undefined) throw new Error('no cgroup');
    try {
      const before = cgroups.oomKills() ?? 0;
      expect(touchShared(cgroups.procsFiles, 256)).not.toBe(0);
      expect(cgroups.oomKills()).toBeGreaterThan(before);
    } finally {
      await cgroups.close();
    }
  });

  it('near miss: a shared mapping under the cap is untouched', async () => {
    const cgroups = createSessionCgroups({ memoryBytes: 256 * 1024 * 1024 });
    if (cgroups === undefined) throw new Error('no cgroup');
    try {
      expect(touchShared(cgroups.procsFiles, 32)).toBe(0);
      expect(cgroups.oomKills()).toBe(0);
    } finally {
      await cgroups.close();
    }
  });
});
