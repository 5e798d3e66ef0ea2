import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sysvIpcIds } from '../../runtime/sandbox/sysv-ipc.js';

const SHM = [
  '       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap',
  '1361898917          3   644                  4096  9999     0      0     0     0     0     0          0          0 1764877000                     0                     0',
  '         0      32769   600               1048576  9998     0      0 65534 65534 65534 65534          0          0 1764877001                     0                     0',
  '',
].join('\n');

describe('sysvIpcIds', () => {
  it.each([
    ['segments, key in decimal, one key 0 (IPC_PRIVATE)', SHM, [3, 32769]],
    ['a header alone', '       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n', []],
    ['nothing (no System V IPC in the kernel)', '', []],
    ['a malformed line', `${SHM}garbage\n`, [3, 32769]],
  ])('reads %s', (_name, listing, ids) => {
    expect(sysvIpcIds(listing)).toEqual(ids);
  });
});

// The sweep on this host's own namespace would remove the host's objects: it runs (built, from dist/) in a fresh IPC
// namespace of its own, as in the sandbox.
describe.runIf(process.platform === 'linux' && process.getuid?.() === 0 && fs.existsSync('/usr/bin/unshare'))('the sweep', () => {
  it('removes every segment, semaphore set and queue of its namespace, and a second sweep finds none', () => {
    const script = [
      "import('./dist/runtime/sandbox/sysv-ipc.js').then(async ({ createSysvIpcSweeper }) => {",
      "  const { execFileSync } = await import('node:child_process');",
      "  for (const args of [['-M', '65536'], ['-S', '2'], ['-Q']]) execFileSync('ipcmk', args);",
      "  const count = () => execFileSync('ipcs', ['-m', '-s', '-q'], { encoding: 'utf8' }).split('\\n').filter((l) => l.startsWith('0x')).length;",
      '  const before = count(); const sweep = await createSysvIpcSweeper(); sweep(); const after = count(); sweep();',
      '  console.log(JSON.stringify([before, after, count()]));',
      '});',
    ].join('\n');
    const out = execFileSync('unshare', ['--ipc', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([3, 0, 0]);
  });

  it('near miss: leaves the objects of another namespace alone', async () => {
    const id = execFileSync('ipcmk', ['-M', '4096'], { encoding: 'utf8' }).match(/\d+/)?.[0];
    try {
      execFileSync('unshare', ['--ipc', process.execPath, '--input-type=module', '-e', "import('./dist/runtime/sandbox/sysv-ipc.js').then(async (m) => (await m.createSysvIpcSweeper())())"]);
      expect(sysvIpcIds(fs.readFileSync('/proc/sysvipc/shm', 'utf8'))).toContain(Number(id));
    } finally {
      execFileSync('ipcrm', ['-m', String(id)]);
    }
  });
});
