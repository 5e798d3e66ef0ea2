import { describe, expect, it } from 'vitest';
import { parseMountinfo } from '../../src/sandbox/mountinfo.js';

describe('parseMountinfo', () => {
  it('decodes escaped paths, keeps optional fields out, and leaves malformed lines out', () => {
    const text = [
      '36 35 98:0 /mnt1 /mnt/a\\040b rw,noatime master:1 - ext3 /dev/root rw,errors=continue',
      '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime shared:4 - cgroup cgroup rw,pids',
      'not a mountinfo line',
      '',
    ].join('\n');
    expect(parseMountinfo(text)).toEqual([
      { root: '/mnt1', mountPoint: '/mnt/a b', fstype: 'ext3', superOptions: 'rw,errors=continue' },
      { root: '/', mountPoint: '/sys/fs/cgroup/pids', fstype: 'cgroup', superOptions: 'rw,pids' },
    ]);
  });
});
