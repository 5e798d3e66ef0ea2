import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult } from '../helpers/run-sandboxed.js';

// The attacks a sandboxed command makes on the host kernel, as root and as nobody: each must fail, while ordinary
// tool commands keep working. Each attack runs from a script file (`sh probe-N.sh`, which the static check does not
// read) and syscalls go through python3's ctypes, so the static check cannot be what stops them.
const sys = (name: string, call: string): string =>
  `python3 -c ${JSON.stringify(`import ctypes,os; l=ctypes.CDLL(None,use_errno=True); x64=os.uname().machine=='x86_64'; r=${call}; print('${name}', r, ctypes.get_errno())`)}`;

const ATTACKS: [string, string, RegExp][] = [
  ['/proc/sys/kernel/core_pattern is not writable', '[ -w /proc/sys/kernel/core_pattern ] && echo writable; (true >> /proc/sys/kernel/core_pattern) 2>/dev/null && echo opened; echo end', /^end$/],
  ['/proc/sysrq-trigger is not writable', '(true >> /proc/sysrq-trigger) 2>/dev/null && echo opened; echo end', /^end$/],
  ['/proc/kcore reads as empty', 'head -c 16 /proc/kcore 2>/dev/null | wc -c', /^0$/],
  ['/sys is absent', 'ls /sys 2>/dev/null | wc -l', /^0$/],
  ['no capabilities', 'grep CapEff /proc/self/status', /^CapEff:\s+0+$/],
  ['no new privileges', 'grep NoNewPrivs /proc/self/status', /^NoNewPrivs:\s+1$/],
  ['a seccomp filter', 'grep ^Seccomp: /proc/self/status', /^Seccomp:\s+2$/],
  ['unshare(CLONE_NEWUSER) is refused', sys('unshare', 'l.unshare(0x10000000)'), /^unshare -1 1$/],
  ['unshare -U (util-linux) is refused', 'unshare -U true 2>&1; echo rc=$?', /Operation not permitted[\s\S]*rc=1$/],
  ['mount is refused', sys('mount', 'l.mount(b"none", b"/tmp", b"tmpfs", 0, None)'), /^mount -1 1$/],
  ['keyctl is refused', sys('keyctl', 'l.syscall(250 if x64 else 219, 0, 0, 0, 0, 0)'), /^keyctl -1 1$/],
  ['add_key is refused', sys('add_key', 'l.syscall(248 if x64 else 217, b"user", b"k", b"v", 1, -3)'), /^add_key -1 1$/],
  ['ptrace(PTRACE_TRACEME) is refused', sys('ptrace', 'l.ptrace(0, 0, 0, 0)'), /^ptrace -1 1$/],
  ['bpf is refused', sys('bpf', 'l.syscall(321 if x64 else 280, 0, 0, 0)'), /^bpf -1 1$/],
  ['io_uring_setup is refused', sys('io_uring', 'l.syscall(425, 1, ctypes.create_string_buffer(120))'), /^io_uring -1 1$/],
  ['userfaultfd is refused', sys('userfaultfd', 'l.syscall(323 if x64 else 282, 0)'), /^userfaultfd -1 1$/],
  ['perf_event_open is refused', sys('perf', 'l.syscall(298 if x64 else 241, 0, 0, -1, -1, 0)'), /^perf -1 1$/],
  ['setns is refused', sys('setns', 'l.setns(0, 0)'), /^setns -1 1$/],
  // bwrap's init (pid 1) runs as the command's user, dumpable, and (in a session zygote's sandbox) without the
  // per-command rlimits: its memory, descriptors and /proc entry are out of reach.
  ['/proc/1 (the sandbox init) is hidden', '(true >> /proc/1/mem) 2>/dev/null && echo opened; ls -A /proc/1 | wc -l', /^0$/],
  ['pidfd_getfd from the sandbox init is refused', sys('pidfd_getfd', 'l.syscall(438, l.syscall(434, 1, 0), 0, 0)'), /^pidfd_getfd -1 1$/],
];

const NEAR_MISSES: [string, string, RegExp][] = [
  ['sh runs', 'sh -c "echo sh-ok"', /^sh-ok$/],
  ['ls runs', 'ls -a | grep -c .', /^\d+$/],
  ['git status runs', 'git status --porcelain && echo git-ok', /git-ok$/],
  ['node runs, with a child process and a worker thread', `node -e ${JSON.stringify("const {Worker}=require('worker_threads'); require('child_process').execFileSync('true'); new Worker('1',{eval:true}).on('exit',()=>console.log('node-ok'))")}`, /^node-ok$/],
  ['python3 runs, with a thread and a fork', `python3 -c ${JSON.stringify("import threading,os; t=threading.Thread(target=lambda:None); t.start(); t.join(); pid=os.fork(); os._exit(0) if pid==0 else os.waitpid(pid,0); print('py-ok')")}`, /^py-ok$/],
  ['pidfd_open of its own process is allowed', sys('pidfd_open', 'int(l.syscall(434, os.getpid(), 0) >= 0)'), /^pidfd_open 1 0$/],
  ['ps lists the processes', 'ps -e -o pid= | wc -l', /^[1-9]\d*$/],
  ['unshare(CLONE_FILES) is allowed', sys('unshare-files', 'l.unshare(0x400)'), /^unshare-files 0 0$/],
  ['writing .gitignore and an ordinary file works', 'echo dist > .gitignore && echo x > notes.txt && cat .gitignore', /^dist$/],
];

describe.each(DRIVER_USERS)('sandboxed commands as %s', (user) => {
  let ws: TempTree;
  let results: Map<string, DriverResult>;

  beforeAll(async () => {
    ws = makeTempTree('tw-rootsafe', { 'a.txt': 'a\n' });
    execFileSync('git', ['init', '-q', ws.root]);
    ATTACKS.forEach(([, script], i) => ws.write({ [`probe-${i}.sh`]: `${script}\n` }));
    if (user === 'nobody') giveToNobody(ws.root);
    const commands = [...ATTACKS.map((_attack, i) => `sh probe-${i}.sh`), ...NEAR_MISSES.map(([, command]) => command)];
    const ran = await runSandboxed(user, ws.root, commands);
    results = new Map(ran.map((r, i) => [i < ATTACKS.length ? ATTACKS[i]?.[1] ?? '' : r.command, r]));
  }, 90_000);
  afterAll(() => ws.cleanup());

  it.each(ATTACKS)('%s', (_name, command, expected) => {
    const result = results.get(command);
    expect(result?.isError, result?.text).toBe(false);
    expect(result?.stdout.trim(), result?.text).toMatch(expected);
  });

  it.each(NEAR_MISSES)('near miss: %s', (_name, command, expected) => {
    const result = results.get(command);
    expect(result?.isError, result?.text).toBe(false);
    expect(result?.exitCode, result?.text).toBe(0);
    expect(result?.stdout.trim(), result?.text).toMatch(expected);
  });
});
