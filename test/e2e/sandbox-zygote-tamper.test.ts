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
// Opens the zygote's memory for reading and writing: with either, a command could read what the runtime sends for
// other commands or rewrite the zygote (which runs without the per-command rlimits) into spawning for it.
const MEMORY = `const fs = require('fs');
for (const flags of ['r', 'r+']) {
  try { fs.closeSync(fs.openSync('/proc/2/mem', flags)); console.log(flags + ':opened'); } catch (error) { console.log(flags + ':' + error.code); }
}`;
// The zygote's other descriptors are libuv's own pipes (signal and wake-up): garbage there may break the zygote.
// Stops the zygote once it has surely sent the command's `spawned` (a stop before that frame leaves would be the
// unanswered spawn, SANDBOX_LOST at SPAWN_CONFIRM_MS, which is a different row's case than the timeout's here).
const STOP = 'sleep 1; kill -STOP 2; echo stopped\n';
const PIPES = 'for f in /proc/2/fd/*; do [ "$(readlink $f | cut -c1-5)" = "pipe:" ] && printf garbage-garbage-garbage > $f 2>/dev/null; done; sleep 2; echo survived\n';

describe.skipIf(!hasBwrap).each(DRIVER_USERS)('a command tampering with its session zygote through /proc, as %s', (user) => {
  let ws: TempTree;
  let results: DriverResult[];

  beforeAll(async () => {
    ws = makeTempTree('tw-zygote-tamper', { 'inject.js': INJECT, 'memory.js': MEMORY, 'pipes.sh': PIPES, 'stop.sh': STOP });
    if (user === 'nobody') giveToNobody(ws.root);
    results = await runSandboxed(user, ws.root, ['node inject.js; sleep 1; cat escaped.txt 2>/dev/null || echo not-escaped', 'node memory.js', 'sh pipes.sh', 'ps -o args= -p 2; echo fresh', 'sh stop.sh', 'ps -o args= -p 2; echo fresh'], { limits: { commandTimeoutMs: 5000 }, sandboxZygote: ZYGOTE_UNDER_TEST });
  }, 120_000);
  afterAll(() => ws.cleanup());

  it('cannot write a spawn request into the zygote through its stdio (they are sockets: reopening them fails)', () => {
    expect(results[0]?.stdout).toBe('0:ENXIO\n1:ENXIO\n2:ENXIO\nnot-escaped\n');
  });

  // Known, and why zygotes are off by default here: /proc/2/mem opens for reading and writing (PTRACE_MODE_ATTACH
  // passes: same user, no Yama on this host; the filter refuses ptrace and process_vm_* but not that open), and a
  // write-back into a writable mapping succeeds (the self-test's zygote-memory-sealed property fails). This suite runs
  // the zygote with allowZygoteMemoryWrites to test the rest; the default runtime uses a bwrap per command here
  // (test/e2e/sandbox-zygote-slots.test.ts checks that). The fix that would let zygotes on here is a non-dumpable
  // zygote (then /proc/2/{mem,fd,environ} need CAP_SYS_PTRACE): a small native launcher, Node has no prctl.
  it.skip('cannot open the zygote\'s memory at all', () => {
    expect(results[1]?.stdout).toBe('r:EACCES\nr+:EACCES\n');
  });

  it('garbage in the zygote\'s own pipes costs only that command: the sandbox is lost and the next command gets a fresh one', () => {
    expect(results[2]?.code).toBe('SANDBOX_LOST');
    expect(results[3]).toMatchObject({ exitCode: 0 });
    expect(results[3]?.stdout).toMatch(/zygote-main\.js.*\nfresh\n$/);
  });

  it('a stopped zygote holds the host only until the command\'s timeout: then the sandbox is killed and the next command gets a fresh one', () => {
    expect(results[4]?.code).toBe('TIMEOUT');
    expect(results[5]).toMatchObject({ exitCode: 0 });
    expect(results[5]?.stdout).toMatch(/zygote-main\.js.*\nfresh\n$/);
  });
});
