import { describe, expect, it } from 'vitest';
import { findCgroupHome, joinCgroupsArgv, parseOomKills, sessionMemoryCap } from '../../src/sandbox/cgroups.js';

const V1_MOUNTS = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const V2_MOUNT = '29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate';

describe("findCgroupHome('pids')", () => {
  it.each<[string, string, string, ReturnType<typeof findCgroupHome>]>([
    ['v1 pids at the root', '8:pids:/\n4:memory:/x\n0::/', V1_MOUNTS, { version: 1, dir: '/sys/fs/cgroup/pids' }],
    ['v1 pids in a nested cgroup', '8:pids:/agents/a1\n0::/', V1_MOUNTS, { version: 1, dir: '/sys/fs/cgroup/pids/agents/a1' }],
    ['v1 pids co-mounted with another controller', '8:cpu,pids:/s', V1_MOUNTS.replace('rw,pids', 'rw,cpu,pids'), { version: 1, dir: '/sys/fs/cgroup/pids/s' }],
    ['v2 only', '0::/user.slice/app.scope', V2_MOUNT, { version: 2, dir: '/sys/fs/cgroup/user.slice/app.scope' }],
    ['v1 without pids falls back to the hybrid v2 mount', '4:memory:/x\n0::/svc', V1_MOUNTS.replace(/\n39 .*pids\n/, '\n'), { version: 2, dir: '/sys/fs/cgroup/unified/svc' }],
    ['a container mount whose root is this cgroup', '8:pids:/docker/abc', '50 40 0:36 /docker/abc /sys/fs/cgroup/pids ro - cgroup cgroup rw,pids', { version: 1, dir: '/sys/fs/cgroup/pids' }],
    ['a mount of another part of the hierarchy', '8:pids:/elsewhere', '50 40 0:36 /docker/abc /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids', undefined],
    ['a mount point with an escaped space', '0::/s', '29 23 0:26 / /mnt/cg\\040two rw - cgroup2 cgroup2 rw', { version: 2, dir: '/mnt/cg two/s' }],
    ['no cgroup mounted at all', '0::/', '22 1 8:1 / / rw - ext4 /dev/vda rw', undefined],
    ['an empty /proc/self/cgroup', '', V2_MOUNT, undefined],
  ])('%s', (_name, cgroup, mountinfo, expected) => {
    expect(findCgroupHome('pids', cgroup, mountinfo)).toEqual(expected);
  });
});

describe("findCgroupHome('memory')", () => {
  it('finds the v1 memory hierarchy in a nested cgroup, not the pids one', () => {
    expect(findCgroupHome('memory', '8:pids:/\n4:memory:/process_api/abc\n0::/', V1_MOUNTS)).toEqual({ version: 1, dir: '/sys/fs/cgroup/memory/process_api/abc' });
  });
  it('falls back to v2 when no v1 hierarchy has memory', () => {
    expect(findCgroupHome('memory', '0::/app.scope', V2_MOUNT)).toEqual({ version: 2, dir: '/sys/fs/cgroup/app.scope' });
  });
});

describe('joinCgroupsArgv', () => {
  it('moves the shell itself into each cgroup, then execs the argv unquoted', () => {
    const argv = joinCgroupsArgv(['/cg/p/cgroup.procs', '/cg/m/cgroup.procs'], ['bwrap', '--', 'sh', '-c', 'a b']);
    expect(argv.slice(3)).toEqual(['2', '/cg/p/cgroup.procs', '/cg/m/cgroup.procs', 'bwrap', '--', 'sh', '-c', 'a b']);
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
  });
});

describe('parseOomKills and sessionMemoryCap', () => {
  it.each<[string, string, number | undefined]>([
    ['v1 memory.oom_control', 'oom_kill_disable 0\nunder_oom 0\noom_kill 3\n', 3],
    ['v2 memory.events', 'low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n', 2],
    ['an old kernel without the count', 'oom_kill_disable 0\nunder_oom 0\n', undefined],
  ])('%s', (_name, text, expected) => {
    expect(parseOomKills(text)).toBe(expected);
  });
  it('is a command, its three tmpfs (/tmp, /dev/shm, HOME) and 256 MiB for the sandbox', () => {
    expect(sessionMemoryCap({ commandMemoryBytes: 1024, sandboxTmpBytes: 10 })).toBe(1054 + 256 * 1024 * 1024);
  });
});
