import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult, ZYGOTE_UNDER_TEST } from '../helpers/run-sandboxed.js';

// A command runs as the zygote's user in its pid namespace (the zygote is pid 2), so /proc/2 is open to it. These
// rows try to reach the zygote's request channel or state through /proc and check what stops them. Scripts run from
// files so the static check (which refuses /proc paths on the command line) is not what stops them.
const INJECT = `const fs = require('fs');
const header = Buffer.from(JSON.stringify({ type: 'spawn', id: 999999, file: '/bin/sh', args: ['-c', 'echo escaped > ' + process.cwd() + '/escaped.txt'], cwd: process.cwd(), env: {}, stdin: 'ignore', stopThroughDescendants: false }));
const prefix = Buffer.alloc(8); prefix.writeUInt32BE(4 + header.length, 0); prefix.writeUInt32BE(header.length, 4);
for (const fd of [0, 1, 2]) {
  try { const out = fs.openSync('/proc/2/fd/' + fd, 'w'); fs.writeSync(out, Buffer.concat([prefix, header])); console.log(fd + ':written'); }
  catch (error) { console.log(fd + ':' + error.code); }
}`;
// Opens the memory of the zygote (pid 2) and of the sandbox's init (pid 1, bwrap's) for reading and writing: with
// either, a command could read what the runtime sends for other commands or rewrite the process (which runs without
// the per-command rlimits) into spawning for it. The zygote's descriptors and environment are behind the same check.
const MEMORY = `const fs = require('fs');
for (const path of ['/proc/2/mem', '/proc/1/mem', '/proc/2/environ']) {
  for (const flags of ['r', 'r+']) {
    try { fs.closeSync(fs.openSync(path, flags)); console.log(path + ' ' + flags + ':opened'); } catch (error) { console.log(path + ' ' + flags + ':' + error.code); }
  }
}
try { console.log('fd link:' + fs.readlinkSync('/proc/2/fd/0')); } catch (error) { console.log('fd link:' + error.code); }`;
// The zygote's other descriptors are libuv's own pipes (signal and wake-up): garbage there may break the zygote.
// Stops the zygote once it has surely sent the command's `spawned` (a stop before that frame leaves would be the
// unanswered spawn, SANDBOX_LOST at SPAWN_CONFIRM_MS, which is a different row's case than the timeout's here).
const STOP = 'sleep 1; kill -STOP 2; echo stopped\n';
// Lowers the zygote's process limit (allowed: a process of the same user), which every later command would inherit.
const LOWER = 'import ctypes\nclass R(ctypes.Structure): _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]\nl = ctypes.CDLL(None, use_errno=True)\nprint("lowered", l.prlimit(2, 6, ctypes.byref(R(3, 3)), None))\n';
const PIPES = 'for f in /proc/2/fd/*; do [ "$(readlink $f | cut -c1-5)" = "pipe:" ] && printf garbage-garbage-garbage > $f 2>/dev/null; done; sleep 2; echo survived\n';

describe.skipIf(!hasBwrap).each(DRIVER_USERS)('a command tampering with its session zygote through /proc, as %s', (user) => {
  let ws: TempTree;
  let results: DriverResult[];

  beforeAll(async () => {
    ws = makeTempTree('tw-zygote-tamper', { 'inject.js': INJECT, 'memory.js': MEMORY, 'pipes.sh': PIPES, 'stop.sh': STOP, 'lower.py': LOWER, 'limits.sh': 'grep "Max processes" /proc/self/limits\n' });
    if (user === 'nobody') giveToNobody(ws.root);
    results = await runSandboxed(user, ws.root, ['node inject.js; sleep 1; cat escaped.txt 2>/dev/null || echo not-escaped', 'node memory.js', 'sh pipes.sh', 'ps -o args= -p 2; echo fresh', 'sh stop.sh', 'ps -o args= -p 2; echo fresh', 'python3 lower.py', 'echo after', 'sh limits.sh'], { limits: { commandTimeoutMs: 5000 }, sandboxZygote: ZYGOTE_UNDER_TEST });
  }, 120_000);
  afterAll(() => ws.cleanup());

  // Refused twice over: /proc/2/fd is closed to commands (the zygote is non-dumpable), and its stdio are sockets
  // (reopening one through /proc fails with ENXIO even where the entry is open).
  it('cannot write a spawn request into the zygote through its stdio', () => {
    expect(results[0]?.stdout).toBe('0:EACCES\n1:EACCES\n2:EACCES\nnot-escaped\n');
  });

  // The zygote makes itself non-dumpable before its first command (runtime/sandbox/non-dumpable.ts), so opening its
  // /proc files needs CAP_SYS_PTRACE, which no command holds; bwrap's init is dumpable, so its /proc entry is hidden.
  it('cannot open the memory, environment or descriptors of the zygote or the sandbox\'s init', () => {
    const refused = [['/proc/2/mem', 'EACCES'], ['/proc/1/mem', 'ENOENT'], ['/proc/2/environ', 'EACCES']].flatMap(([path, code]) => [`${path} r:${code}`, `${path} r+:${code}`]);
    expect(results[1]?.stdout).toBe(`${refused.join('\n')}\nfd link:EACCES\n`);
  });

  it('cannot reach the zygote\'s own pipes, and the same zygote runs the next command', () => {
    expect(results[2]).toMatchObject({ exitCode: 0, stdout: 'survived\n' });
    expect(results[3]).toMatchObject({ exitCode: 0 });
    expect(results[3]?.stdout).toMatch(/zygote-main\.js.*\nfresh\n$/);
  });

  it('a stopped zygote holds the host only until the command\'s timeout: then the sandbox is killed and the next command gets a fresh one', () => {
    expect(results[4]?.code).toBe('TIMEOUT');
    expect(results[5]).toMatchObject({ exitCode: 0 });
    expect(results[5]?.stdout).toMatch(/zygote-main\.js.*\nfresh\n$/);
  });

  it('a command that lowers the zygote\'s rlimits costs the next spawn only: that zygote goes, the one after has the limits', () => {
    expect(results[6]).toMatchObject({ exitCode: 0, stdout: 'lowered 0\n' });
    expect(results[7]?.code).toBe('SANDBOX_LOST');
    expect(results[8]).toMatchObject({ exitCode: 0 });
    expect(results[8]?.stdout).toMatch(/^Max processes\s+512\s+512\s/);
  });
});
